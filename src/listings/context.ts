// The valuation context the listings run and bulk scoring value against: one per process or worker thread, built
// once from the store and rebuilt when the current snapshot changes. The one place to switch when the valuation
// module publishes a fuller serving context.
import type { Kernel } from '../kernel/index.js';
import { openStore, type Store } from '../store/store.js';
import { buildValuationContext, type ValuationContext } from '../valuation/value-context.js';

export function scoringContext(store: Store, kernel?: Kernel): ValuationContext {
  return buildValuationContext(store, { kernel });
}

const perDataDir = new Map<string, { store: Store; ctx: ValuationContext | null; kernel: Kernel | null }>();

/** Worker side: the store and context for `dataDir`, opened on first use and kept while the snapshot is current. */
export function workerScoringContext(dataDir: string, kernel: Kernel): ValuationContext {
  let hit = perDataDir.get(dataDir);
  if (!hit) {
    hit = { store: openStore(dataDir), ctx: null, kernel: null };
    perDataDir.set(dataDir, hit);
  }
  if (!hit.ctx || hit.kernel !== kernel || hit.ctx.snapshotId !== hit.store.currentSnapshotId()) {
    hit.ctx = scoringContext(hit.store, kernel);
    hit.kernel = kernel;
  }
  return hit.ctx;
}
