// Following a shared row on PostgreSQL from every replica: LISTEN on its channel and, every pollMs besides, run the
// caller's check (one at a time, coalesced). The poll bounds the delay when a notification is lost (the LISTEN
// connection was cut); a broken LISTEN connection is dropped from the pool and opened again on the next poll. Used by
// the snapshot pointer's follower and the model registry's.
import type pg from 'pg';
import { coalescedRun, type CoalescedRun } from '../coalesced-run.js';
import type { PgPool } from './pool.js';

export type ChannelFollower<T> = {
  /** Runs the check now (joining one in flight). */
  check: CoalescedRun<T>;
  listening(): boolean;
  /** Ends the poll and the LISTEN, after the check in flight. */
  stop(): Promise<void>;
};

export type ChannelFollowerOptions<T> = { pool: PgPool; channel: string; pollMs: number; check: () => Promise<T>; onError?: (e: unknown) => void };

/** Starts listening, runs one check (awaited), then one per NOTIFY and per poll. */
export async function followChannel<T>(o: ChannelFollowerOptions<T>): Promise<ChannelFollower<T>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(o.channel)) throw new Error(`bad channel name ${o.channel}`);
  let stopped = false;
  const check = coalescedRun(o.check, () => !stopped);
  let listener: pg.PoolClient | null = null;
  const listen = async (): Promise<void> => {
    let c: pg.PoolClient | null = null;
    let released = false;
    // a broken connection is not returned to the pool; the next poll listens again
    const drop = (conn: pg.PoolClient): void => {
      if (listener === conn) listener = null;
      if (!released) conn.release(true);
      released = true;
    };
    try {
      c = await o.pool.connect();
      const conn = c;
      conn.on('notification', (n) => void (n.channel === o.channel && !stopped && check()));
      conn.on('error', () => drop(conn));
      await conn.query(`LISTEN ${o.channel}`);
      listener = conn;
    } catch (e) {
      if (c) drop(c);
      o.onError?.(e);
    }
  };
  await listen();
  await check();
  const timer = setInterval(() => {
    if (!listener && !stopped) void listen();
    void check();
  }, o.pollMs);
  timer.unref();
  return {
    check,
    listening: () => listener !== null,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await check.idle();
      const c = listener;
      listener = null;
      if (c) {
        await c.query(`UNLISTEN ${o.channel}`).catch(() => undefined);
        c.release();
      }
    },
  };
}
