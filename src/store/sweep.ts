// A retention sweep on a schedule: once at start, then every `intervalHours`, never two at once; `stop` ends the
// schedule and waits for a running sweep (before the store closes). The audit, the app analytics events and the OAuth
// records each prune their own sub-database through it.
export type Sweeper = { first: Promise<void>; stop: () => Promise<void> };

export function schedulePeriodicSweep(sweepOnce: () => Promise<unknown> | unknown, intervalHours: number, onError: (e: unknown) => void): Sweeper {
  let running: Promise<void> = Promise.resolve();
  const sweep = (): Promise<void> => (running = running.then(sweepOnce).then(() => undefined, onError));
  const first = sweep();
  const timer = setInterval(sweep, intervalHours * 3_600_000).unref();
  return {
    first,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
