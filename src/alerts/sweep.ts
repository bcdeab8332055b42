// Replicas on PostgreSQL sweep the shared outbox: every reclaim interval, deliver what nobody holds (alerts another
// replica enqueued, claims whose replica died and whose lease lapsed). Never two sweeps at once in one process (coalescedRun); stop()
// waits for the running one. The LMDB default needs none: its one process resumes its outbox at start.
import { ALERTS } from '../registry/groups/alerts.js';
import { coalescedRun } from '../store/coalesced-run.js';
import { deliverPending, type DeliveryContext } from './delivery.js';

export type OutboxSweeper = { stop(): Promise<void> };

export function startOutboxSweeper(ctx: DeliveryContext, intervalMs: number = ALERTS.v.reclaim_interval_ms, onError?: (e: unknown) => void): OutboxSweeper {
  let stopped = false;
  const sweep = coalescedRun(() => deliverPending(ctx).then(() => undefined, (e) => onError?.(e)), () => !stopped);
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await sweep.idle();
    },
  };
}
