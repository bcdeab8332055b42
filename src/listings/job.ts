// The listings job as the CLI (`avm run-listings`) and the service's daily scheduler run it: open the store (or use
// the caller's), start a scoring pool, run once, deliver alerts, close what it opened. The service arms the daily
// schedule itself (startListingsScheduler) over its observed run (src/app/listings-run.ts).
import { deliveryContextFromConfig, openAlertStore, type AlertStore, type DeliveryContext } from '../alerts/index.js';
import { loadConfig, type Config } from '../config.js';
import { openStore, type Store } from '../store/store.js';
import { runListingsOnce, type ListingsRunResult, type RunKind } from './run.js';
import { poolScorer } from '../scoring/scorer.js';

export type RunListingsOptions = {
  dataDir?: string; kind?: RunKind; config?: Config; store?: Store; now?: () => Date; alerts?: boolean;
  /** The service's observers of the alert deliveries this run makes (log lines, outcome counters). */
  alertObservers?: Pick<DeliveryContext, 'log' | 'onOutcome' | 'outbox' | 'digest'>;
  /** The service's alert store (its profiles may live in PostgreSQL); default the store's LMDB environment. */
  alertStore?: AlertStore;
};

/** Runs the listings job once now (kind `manual` unless told). Opens and closes its own store unless one is passed. */
export async function runListings(o: RunListingsOptions = {}): Promise<ListingsRunResult> {
  const config = o.config ?? loadConfig({ ...process.env, ...(o.dataDir ? { AVM_DATA_DIR: o.dataDir } : {}) });
  const store = o.store ?? openStore(config.dataDir);
  const scorer = await poolScorer(store, config);
  try {
    const alerts = o.alerts === false ? null : { ...deliveryContextFromConfig(o.alertStore ?? openAlertStore(store.env), config), ...o.alertObservers };
    return await runListingsOnce({ store, scorer, kind: o.kind ?? 'manual', now: o.now, alerts });
  } finally {
    await scorer.close();
    if (!o.store) await store.close();
  }
}

/** One-line summary for the CLI. */
export function formatRunSummary(r: ListingsRunResult): string {
  return `listings run ${r.last_run.kind}: found ${r.last_run.found} active in feed, ${r.duplicates} duplicates dropped, ${r.overflow} over the cap, ${r.active} active stored ` +
    `(${r.scored} scored, ${r.unscored} unscored, ${r.errors} errors), ${r.last_run.new_count} new, ${Math.round(r.wall_ms)} ms`;
}
