// Which process runs the day's listings run. One replica (the LMDB default): this process, once per UTC day, the day
// recorded in the `meta` sub-database. Several replicas on PostgreSQL: daily-run-pg.ts (an advisory lock plus a row per
// day). Both keep the same contract (test/listings/daily-run.contract.test.ts): one run per day however many callers
// fire, a finished day never runs again, a run whose process died runs again on the next call.
import type { RootDatabase } from 'lmdb';
import { DB_NAMES, openSubDb } from '../store/env.js';

export type DailyRunOutcome<T> = { ran: true; result: T } | { ran: false; reason: 'running_elsewhere' | 'already_ran' };

export type DailyRunLock = {
  /** Runs `job` for the UTC day `day` (YYYY-MM-DD) unless it runs elsewhere now or already finished; a job's throw is rethrown (the day counts as finished). */
  runOnce<T>(day: string, job: () => Promise<T>): Promise<DailyRunOutcome<T>>;
};

export type DailyRunRecord = { owner: string; started_at: string; finished_at: string | null; outcome: 'ok' | 'failed' | null };

export const dailyRunKey = (day: string): string => `daily_run:${day}`;

// Days being run by this process, per environment: every lock opened on one environment sees the others' runs.
const running = new WeakMap<object, Set<string>>();

export function lmdbDailyRunLock(env: RootDatabase, owner = `pid:${process.pid}`): DailyRunLock {
  const meta = openSubDb(env, DB_NAMES.meta);
  let days = running.get(env);
  if (!days) running.set(env, (days = new Set()));
  const here = days;
  const finish = (day: string, rec: DailyRunRecord, outcome: 'ok' | 'failed'): Promise<boolean> =>
    meta.put(dailyRunKey(day), { ...rec, finished_at: new Date().toISOString(), outcome });
  return {
    async runOnce(day, job) {
      if (here.has(day)) return { ran: false, reason: 'running_elsewhere' };
      const prev = meta.get(dailyRunKey(day)) as DailyRunRecord | undefined;
      // A record without finished_at belongs to a process that died mid-run (this process is not running it): run again.
      if (prev?.finished_at) return { ran: false, reason: 'already_ran' };
      here.add(day);
      const rec: DailyRunRecord = { owner, started_at: new Date().toISOString(), finished_at: null, outcome: null };
      try {
        await meta.put(dailyRunKey(day), rec);
        let result;
        try {
          result = await job();
        } catch (e) {
          await finish(day, rec, 'failed');
          throw e;
        }
        await finish(day, rec, 'ok');
        return { ran: true, result };
      } finally {
        here.delete(day);
      }
    },
  };
}
