// The stamp every valuation task carries: the versions a served answer is computed under (sales snapshot, champion
// calibration, hedonic model, listings run). The main thread reads it once per request; a worker whose context was
// built under another stamp rebuilds before answering, so a promotion or a new snapshot reaches every door at once.
import { championVersion } from '../registry/model-registry.js';
import type { Store } from '../store/store.js';
import { currentHedonicVersion } from '../valuation/hedonic/store.js';

export type Stamp = {
  snapshotId: string;
  /** Champion calibration version, or null before any promotion. */
  calibrationVersion: string | null;
  /** Current Tier-2 hedonic model version, or null when none was fit. */
  hedonicVersion: string | null;
  /** When the listings run that wrote the stored inventory finished (the inventory percentiles' population), or null. */
  listingsRun: string | null;
};

export const sameStamp = (a: Stamp | null, b: Stamp): boolean =>
  a !== null && a.snapshotId === b.snapshotId && a.calibrationVersion === b.calibrationVersion && a.hedonicVersion === b.hedonicVersion && a.listingsRun === b.listingsRun;

/**
 * The current stamp, read through a fresh LMDB read transaction: lmdb-js renews its read snapshot only on a later
 * event-loop turn, which a synchronous worker task or a busy main thread may not reach between a switch and a read.
 * Throws corpus_unavailable when no snapshot was ingested.
 */
export function readStamp(store: Store): Stamp {
  store.env.resetReadTxn();
  return {
    snapshotId: store.readSalesSnapshotId(),
    calibrationVersion: championVersion(store),
    hedonicVersion: currentHedonicVersion(store.env),
    listingsRun: store.lastRun()?.finished ?? null,
  };
}
