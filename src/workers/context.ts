// The one valuation context of a worker thread (or of an in-process caller), keyed by the stamp the main thread puts
// on every task: built once per sales snapshot, its calibration table, hedonic model and listing data swapped in when
// the stamp names other versions. Every task (served doors, listings run, bulk scoring) values through it.
import { LISTINGS_RUN } from '../registry/groups/listings.js';
import { openModelRegistry } from '../registry/model-registry.js';
import { scoreSubject } from '../scoring/score-subject.js';
import { openStore, type Store } from '../store/store.js';
import { buildValuationContext, withHedonicModel, withListings, type ValuationContext } from '../valuation/value-context.js';
import { sameStamp, type Stamp } from './stamp.js';

export type WorkerContext = { store: Store; stamp: Stamp; ctx: ValuationContext };

const stores = new Map<string, Store>();
const contexts = new Map<string, WorkerContext>();

function storeFor(dataDir: string): Store {
  let store = stores.get(dataDir);
  if (!store) stores.set(dataDir, (store = openStore(dataDir)));
  return store;
}

/**
 * The context of `dataDir` under `stamp`. A new snapshot rebuilds everything (kernel, sales, parcels, time index);
 * a new calibration, hedonic model or listings run swaps only that part. The stamp names exact versions, so two
 * threads answering under one stamp answer alike, whatever the store's pointers say by the time they read.
 */
export function contextFor(dataDir: string, stamp: Stamp): WorkerContext {
  const store = storeFor(dataDir);
  const held = contexts.get(dataDir) ?? null;
  if (held && sameStamp(held.stamp, stamp)) return held;
  // A synchronous task never returns to the event loop, where lmdb-js would renew its read transaction: renew it
  // here so the versions the stamp names (written by another process a moment ago) are visible to this thread.
  store.env.resetReadTxn();
  let ctx = held && held.stamp.snapshotId === stamp.snapshotId ? held.ctx : buildValuationContext(store, { snapshotId: stamp.snapshotId, calibration: null, hedonicVersion: stamp.hedonicVersion });
  if (held?.ctx === ctx && held.stamp.hedonicVersion !== stamp.hedonicVersion) ctx = withHedonicModel(ctx, store, stamp.hedonicVersion);
  if (held?.ctx === ctx && held.stamp.listingsRun !== stamp.listingsRun) ctx = withListings(ctx, store.getListings());
  ctx = { ...ctx, calibration: stamp.calibrationVersion === null ? null : openModelRegistry(store).getTable(stamp.calibrationVersion) };
  const next: WorkerContext = { store, stamp, ctx };
  contexts.set(dataDir, next);
  return next;
}

/** Closes every store this thread opened (tests; a worker thread's stores close with it). */
export async function closeWorkerStores(): Promise<void> {
  contexts.clear();
  const all = [...stores.values()];
  stores.clear();
  await Promise.all(all.map((s) => s.close()));
}

/**
 * Builds the parcel view's lazy lookups (PIN and address maps, the point grid) and scores a few listings now, at worker
 * start-up, so the first listings run after start-up does not pay for them (reference files, rent and tax caches, JIT).
 */
export function warmLookups(ctx: ValuationContext): ValuationContext {
  const p = ctx.subjects.parcels;
  if (p && p.length > 0) {
    p.rowOfPin(p.pin(0));
    const a = p.address(0);
    if (a !== null) p.rowOfAddress(a);
    p.near(p.lat[0], p.lon[0]);
  }
  for (const l of ctx.subjects.listings.slice(0, LISTINGS_RUN.v.worker_warm_subjects)) scoreSubject({ id: l.listing_id, input: { propertyId: l.listing_id } }, ctx); // errors are values; discarded
  return ctx;
}
