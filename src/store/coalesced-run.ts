// One run at a time of an async step that may be asked for again while it runs (a catch-up read on every notification,
// a pointer check on every NOTIFY and poll): a call during a run returns that run's promise and makes it go once more
// when it ends (it may have missed what the new call was for), so a burst of calls costs at most one extra pass.

export type CoalescedRun<T> = (() => Promise<T>) & {
  /** Resolves once no run is in flight (never rejects): what a stop awaits. */
  idle(): Promise<void>;
};

/** `keepGoing`: checked before a requested extra pass (false once the owner stopped). */
export function coalescedRun<T>(once: () => Promise<T>, keepGoing: () => boolean = () => true): CoalescedRun<T> {
  let running: Promise<T> | null = null;
  let again = false;
  const run = (): Promise<T> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let out: T;
      do {
        again = false;
        out = await once();
      } while (again && keepGoing());
      return out;
    })().finally(() => {
      running = null;
    });
    return running;
  };
  return Object.assign(run, { idle: async (): Promise<void> => void (await running?.catch(() => undefined)) });
}
