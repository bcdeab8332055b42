// The valuation context the listings run and bulk scoring value against: one per process or worker thread, built
// once from the store and rebuilt when the current snapshot changes. The one place to switch when the valuation
// module publishes a fuller serving context.
import type { Kernel } from '../kernel/index.js';
import { openStore, type Store } from '../store/store.js';
import { buildValuationContext, type ValuationContext } from '../valuation/value-context.js';
import { scoreSubject, type ScoreSubject } from '../scoring/score-subject.js';
import { LISTINGS_RUN } from '../registry/groups/listings.js';

export function scoringContext(store: Store, kernel?: Kernel): ValuationContext {
  return buildValuationContext(store, { kernel });
}

const perDataDir = new Map<string, { store: Store; ctx: ValuationContext | null; kernel: Kernel | null }>();

/**
 * Worker side: the store and context for `dataDir`, opened on first use and kept while the snapshot is current;
 * `warm` (the listings pool's start-up task) also builds the lazy lookups a listings run reads (warmLookups).
 */
export function workerScoringContext(dataDir: string, kernel: Kernel, o: { warm?: boolean } = {}): ValuationContext {
  let hit = perDataDir.get(dataDir);
  if (!hit) {
    hit = { store: openStore(dataDir), ctx: null, kernel: null };
    perDataDir.set(dataDir, hit);
  }
  if (!hit.ctx || hit.kernel !== kernel || hit.ctx.snapshotId !== hit.store.currentSnapshotId()) {
    const ctx = scoringContext(hit.store, kernel);
    hit.ctx = o.warm ? warmLookups(ctx) : ctx;
    hit.kernel = kernel;
  }
  return hit.ctx;
}

/** Worker side: the context for `dataDir` (as workerScoringContext) with the store it was built from. */
export function workerStoreAndContext(dataDir: string, kernel: Kernel): { store: Store; ctx: ValuationContext } {
  const ctx = workerScoringContext(dataDir, kernel);
  return { store: perDataDir.get(dataDir)!.store, ctx };
}

/**
 * Builds the parcel view's lazy lookups (PIN and address maps, the point grid) now, at worker start-up, so the first
 * listings run after start-up does not pay for them (a listing resolves by address, then its parcel by PIN).
 */
export function warmLookups(ctx: ValuationContext): ValuationContext {
  const p = ctx.subjects.parcels;
  if (p && p.length > 0) {
    p.rowOfPin(p.pin(0));
    const a = p.address(0);
    if (a !== null) p.rowOfAddress(a);
    p.near(p.lat[0], p.lon[0]);
  }
  // A few real scorings load the reference files, the rent and tax caches and get the hot code compiled.
  const warm: ScoreSubject[] = ctx.subjects.listings.slice(0, LISTINGS_RUN.v.worker_warm_subjects).map((l) => ({
    id: l.listing_id, input: { lat: l.lat, lon: l.lon, address: l.address || null, price: l.price_usd, units: l.units },
  }));
  for (const s of warm) scoreSubject(s, ctx); // errors are values here; the result is discarded
  return ctx;
}

/** Listings scored at worker start-up to warm the context (a few ms; the run itself scores up to 200). */
