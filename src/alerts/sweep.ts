// Replicas on PostgreSQL sweep the shared outbox: every reclaim interval, deliver what nobody holds (alerts another
// replica enqueued, claims whose replica died and whose lease lapsed). Never two sweeps at once in one process; stop()
// waits for the running one. The LMDB default needs none: its one process resumes its outbox at start.
import { ALERTS } from '../registry/groups/alerts.js';
import { deliverPending, type DeliveryContext } from './delivery.js';

export type OutboxSweeper = { stop(): Promise<void> };

export function startOutboxSweeper(ctx: DeliveryContext, intervalMs: number = ALERTS.v.reclaim_interval_ms, onError?: (e: unknown) => void): OutboxSweeper {
  let running: Promise<void> | null = null;
  const tick = (): void => {
    running ??= deliverPending(ctx)
      .then(() => undefined, (e) => onError?.(e))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
