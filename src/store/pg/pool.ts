// The PostgreSQL connection pool of the shared backend (AVM_DATABASE_URL). One pool per process; every query of the
// PostgreSQL backend goes through it. Connection failures surface as store_unavailable-class AppErrors at the caller.
import pg from 'pg';

export type PgPool = pg.Pool;

/** Pool size per process: the service's request handlers and background jobs share it. */
const POOL_MAX = 10;

/** Opens a pool on `url`; the first connection is made (and checked) by the first query. */
export function openPgPool(url: string, opts: { max?: number; applicationName?: string } = {}): PgPool {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? POOL_MAX, application_name: opts.applicationName ?? 'avm' });
  // An idle client's error (the server restarted, the connection was cut) must not crash the process: the pool drops
  // that client and the next query opens a new one.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `fn` in one transaction on one client (BEGIN … COMMIT, ROLLBACK on a throw). */
export async function inTransaction<T>(pool: PgPool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  // A checked-out client has no error listener (pg-pool removes its own), and pg emits 'error' on the client when the
  // server goes away, even with a query in flight: unheard, that would crash the process. The query at hand rejects
  // anyway; the broken client is destroyed on release instead of going back to the pool.
  let broken: Error | undefined;
  const onError = (e: Error): void => {
    broken = e;
  };
  c.on('error', onError);
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.removeListener('error', onError);
    c.release(broken);
  }
}
