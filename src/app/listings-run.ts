// The listings run as the service makes it (first start, the daily schedule, POST /api/run-listings): the one job of
// src/listings, with its outcome logged once (counts, duration, error) and counted in /metrics, and the alert
// deliveries it makes logged and counted.
import type { AlertOutcome, DeliveryContext } from '../alerts/index.js';
import { utcDay } from '../store/days.js';
import type { DailyRunLock, DailyRunOutcome } from '../listings/daily-run.js';
import { lastRunAt, runListings, type ListingsRunResult, type RunKind } from '../listings/index.js';
import type { ServiceContext } from './context.js';
import { backendOf } from './door-services.js';

/** The alert-delivery observers of this service (structured log lines, outcome counters) and its outbox (LMDB when absent). */
export function alertObserversOf(svc: ServiceContext): Pick<DeliveryContext, 'log' | 'onOutcome' | 'outbox' | 'digest'> & { log: (event: string, fields: Record<string, unknown>) => void; onOutcome: (o: AlertOutcome) => void } {
  return { log: (event, fields) => svc.log.info(event, fields), onOutcome: (o) => svc.metrics?.countAlertOutcome(o), outbox: svc.ops?.outbox, digest: svc.ops?.digest };
}

/**
 * The daily run of the latest 13:00 UTC slot (the one just reached when the schedule fires; at a replica's start, the
 * one it may have missed): only the process that gets the slot's lock runs it, and only if nobody finished it.
 */
export async function runDailyListings(svc: ServiceContext, lock: DailyRunLock): Promise<DailyRunOutcome<ListingsRunResult>> {
  const day = utcDay(lastRunAt(svc.now()));
  const out = await lock.runOnce(day, () => runObservedListings(svc, 'daily'));
  if (!out.ran) svc.log.info('daily listings run skipped', { day, reason: out.reason });
  return out;
}

/** Rejects as the run does; the failure is already logged here, so callers need not log it again. */
export async function runObservedListings(svc: ServiceContext, kind: RunKind): Promise<ListingsRunResult> {
  const t0 = performance.now();
  try {
    const result = await runListings({ config: svc.config, store: svc.store, kind, alertObservers: alertObserversOf(svc), alertStore: backendOf(svc).alerts });
    svc.metrics?.observeListingsRun({ ok: true, result, finishedAtSec: svc.now().getTime() / 1000 });
    svc.log.info('listings run finished', {
      run_id: result.run_id, kind, duration_ms: Math.round(result.wall_ms), feed_rows: result.feed_rows, duplicates: result.duplicates, overflow: result.overflow,
      active: result.active, scored: result.scored, unscored: result.unscored, errors: result.errors, new_count: result.last_run.new_count,
      alerts_delivered: result.alerts?.delivery.delivered.length ?? 0, alerts_dead_lettered: result.alerts?.delivery.dead_lettered.length ?? 0,
    });
    return result;
  } catch (err) {
    const durationSec = (performance.now() - t0) / 1000;
    svc.metrics?.observeListingsRun({ ok: false, durationSec, finishedAtSec: svc.now().getTime() / 1000 });
    svc.log.error('listings run failed', { kind, duration_ms: Math.round(durationSec * 1000), err });
    throw err;
  }
}
