// The daily listings run across replicas on PostgreSQL: the replica that takes the advisory lock (session-level, on a
// connection held for the whole run, so a replica's death drops the connection and frees the lock) looks up the day's
// row in `listings_daily_runs` (db/migrations/0202): finished → not again; absent or left unfinished by a dead
// replica → it records itself and runs. Replicas that do not get the lock skip: the holder runs it.
import type { PgPool } from '../store/pg/pool.js';
import type { DailyRunLock } from './daily-run.js';

/** Advisory lock key of the daily listings run (a fixed number unique to this purpose; migrate.ts uses 727_100_001). */
const DAILY_RUN_LOCK = 727_200_001;

export function pgDailyRunLock(pool: PgPool, owner = `pid:${process.pid}`): DailyRunLock {
  return {
    async runOnce(day, job) {
      const c = await pool.connect();
      // Held for the whole run: a cut connection must fail this run's queries, not crash the process with an
      // unhandled 'error' event (the pool's own handler only covers idle clients).
      let broken = false;
      const onError = (): void => void (broken = true);
      c.on('error', onError);
      let locked = false;
      try {
        locked = (await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [DAILY_RUN_LOCK])).rows[0].ok;
        if (!locked) return { ran: false, reason: 'running_elsewhere' };
        const prev = await c.query('SELECT 1 FROM listings_daily_runs WHERE day = $1 AND finished_at IS NOT NULL', [day]);
        if (prev.rowCount) return { ran: false, reason: 'already_ran' };
        await c.query(
          `INSERT INTO listings_daily_runs (day, owner, started_at) VALUES ($1, $2, now())
           ON CONFLICT (day) DO UPDATE SET owner = EXCLUDED.owner, started_at = EXCLUDED.started_at, finished_at = NULL, outcome = NULL`,
          [day, owner],
        );
        const finish = (outcome: 'ok' | 'failed') => c.query('UPDATE listings_daily_runs SET finished_at = now(), outcome = $2 WHERE day = $1', [day, outcome]);
        let result;
        try {
          result = await job();
        } catch (e) {
          await finish('failed');
          throw e;
        }
        await finish('ok');
        return { ran: true, result };
      } finally {
        if (locked) await c.query('SELECT pg_advisory_unlock($1)', [DAILY_RUN_LOCK]).catch(() => undefined);
        c.off('error', onError);
        c.release(broken); // a cut connection is destroyed, not returned to the pool
      }
    },
  };
}
