// Daily listings scheduler: runs at 13:00 UTC every day. The next fire time is computed from an injectable clock and
// re-armed after each run (never a fixed 24 h interval, so drift and a slow run do not shift the schedule).
import { LISTINGS_RUN } from '../registry/groups/listings.js';

const DAY_MS = 86_400_000;

/** The first instant strictly after `now` at `hourUtc`:00:00.000 UTC (13:00 exactly → tomorrow's 13:00). */
export function nextRunAt(now: Date, hourUtc: number = LISTINGS_RUN.v.daily_run_hour_utc): Date {
  if (!Number.isInteger(hourUtc) || hourUtc < 0 || hourUtc > 23) throw new RangeError(`hourUtc must be an integer 0-23, got ${hourUtc}`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc);
  return new Date(today > now.getTime() ? today : today + DAY_MS);
}

/** The latest scheduled instant at or before `now` (the slot a replica starting now may have missed). */
export function lastRunAt(now: Date, hourUtc: number = LISTINGS_RUN.v.daily_run_hour_utc): Date {
  return new Date(nextRunAt(now, hourUtc).getTime() - DAY_MS);
}

export type SchedulerOptions = {
  /** The daily job; its rejection is reported to onError and the schedule continues. */
  run: () => Promise<unknown>;
  now?: () => Date;
  hourUtc?: number;
  onError?: (err: unknown) => void;
  onScheduled?: (at: Date) => void;
};

export type ListingsScheduler = { nextRunAt(): Date | null; stop(): void };

export function startListingsScheduler(o: SchedulerOptions): ListingsScheduler {
  const now = o.now ?? (() => new Date());
  let timer: ReturnType<typeof setTimeout> | null = null;
  let next: Date | null = null;
  let stopped = false;
  const arm = (): void => {
    if (stopped) return;
    // A timer that fires a little early must not schedule the same 13:00 twice: count from the slot just served.
    const from = next !== null && now().getTime() < next.getTime() ? next : now();
    next = nextRunAt(from, o.hourUtc);
    o.onScheduled?.(next);
    timer = setTimeout(fire, Math.max(0, next.getTime() - now().getTime()));
    // A pending daily timer must not keep a CLI process alive on its own.
    timer.unref?.();
  };
  const fire = (): void => {
    timer = null;
    void o
      .run()
      .catch((e) => o.onError?.(e))
      .finally(arm);
  };
  arm();
  return {
    nextRunAt: () => next,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      next = null;
    },
  };
}
