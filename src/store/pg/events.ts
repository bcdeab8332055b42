// The sync event stream in PostgreSQL (issue 18). Ids come from the sequence event_seq, taken under a
// transaction-level advisory lock held until commit: ids therefore become visible in increasing order, and a reader
// that has seen id n will never later see a smaller one (a rolled-back append leaves a gap, which readers skip).
// Each append notifies channel avm_events at commit; every replica LISTENs and, on a notification (and every
// events_catchup_poll_ms, and on reconnect), reads the records after the last one it fanned out and hands them to its
// subscribers (its SSE clients) in id order. So a record written on replica A reaches a client of replica B, and
// resuming by Last-Event-ID reads the same table on any replica.
import pg from 'pg';
import { SHARED_STATE } from '../../registry/groups/shared-state.js';
import type { EventRecord } from '../../events/kinds.js';
import { eventRecordOf, notifyAll, type AppendInput, type EventLog } from '../../events/log.js';
import { inTransaction, type PgPool } from './pool.js';
import { coalescedRun } from '../coalesced-run.js';

export const EVENTS_CHANNEL = 'avm_events';
/** Advisory lock key of the stream's id allocation (any fixed 64-bit number unique to this purpose). */
const EVENT_ID_LOCK = 727_100_100;

export type PgEventLog = EventLog & {
  /** Inside the caller's transaction: takes the next id and stores the record; the notification goes out at commit. */
  appendInTx(c: pg.ClientBase, input: AppendInput): Promise<EventRecord>;
  /** After the commit of an append: resolves once this replica's subscribers have had every record up to `id`. */
  delivered(id: number): Promise<void>;
  close(): Promise<void>;
};

export async function openPgEventLog(pool: PgPool, url: string, opts: { now?: () => number; onError?: (e: unknown) => void } = {}): Promise<PgEventLog> {
  const now = opts.now ?? Date.now;
  const onError = opts.onError ?? (() => undefined);
  const listeners = new Set<(rec: EventRecord) => void>();
  const maxId = async (): Promise<number> => Number((await pool.query<{ m: string | null }>('SELECT max(id) AS m FROM events')).rows[0].m ?? 0);
  const recordsAfter = async (afterId: number, limit: number, order: 'ASC' | 'DESC'): Promise<EventRecord[]> =>
    (await pool.query<{ record: EventRecord }>(`SELECT record FROM events WHERE id > $1 ORDER BY id ${order} LIMIT $2`, [afterId, limit])).rows.map((r) => r.record);

  // Fan-out: the last id handed to subscribers; one catch-up read at a time, re-run when asked for meanwhile.
  let fanned = await maxId();
  const catchUp = coalescedRun(async (): Promise<void> => {
    for (;;) {
      const batch = await recordsAfter(fanned, SHARED_STATE.v.events_fanout_batch, 'ASC');
      for (const rec of batch) {
        fanned = rec.id;
        notifyAll(listeners, rec);
      }
      if (batch.length < SHARED_STATE.v.events_fanout_batch) break;
    }
  });
  const catchUpQuietly = (): void => void catchUp().catch(onError);

  const listener = listenForever(url, catchUpQuietly, onError);
  const poll = setInterval(catchUpQuietly, SHARED_STATE.v.events_catchup_poll_ms).unref();

  const appendInTx = async (c: pg.ClientBase, input: AppendInput): Promise<EventRecord> => {
    // Two round trips while the lock is held (it is held to commit, so each one counts against every replica's
    // appends): the lock then the id (the CTE's row must exist before nextval runs for it), the row and its notification.
    const id = Number((await c.query<{ id: string }>("WITH locked AS (SELECT pg_advisory_xact_lock($1)) SELECT nextval('event_seq') AS id FROM locked", [EVENT_ID_LOCK])).rows[0].id);
    const rec = eventRecordOf(id, input, now());
    await c.query('WITH stored AS (INSERT INTO events (id, record) VALUES ($1, $2) RETURNING id) SELECT pg_notify($3, id::text) FROM stored', [id, JSON.stringify(rec), EVENTS_CHANNEL]);
    return rec;
  };
  const delivered = async (id: number): Promise<void> => {
    // The record is committed, so a catch-up read finds it; a failing read leaves it to the next notification or poll
    // (the write is durable either way, so its acknowledgement stands).
    for (let attempt = 0; fanned < id && attempt < 3; attempt++) await catchUp().catch(onError);
  };
  return {
    appendInTx,
    delivered,
    async appendEvent(input) {
      const rec = await inTransaction(pool, (c) => appendInTx(c, input));
      await delivered(rec.id);
      return rec;
    },
    async readAfter(afterId, max) {
      return (await recordsAfter(afterId, max, 'DESC')).reverse();
    },
    newestAfter: (afterId, maxScan) => recordsAfter(afterId, maxScan, 'DESC'),
    lastId: maxId,
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    listenerCount: () => listeners.size,
    async prune(keepLast) {
      const r = await pool.query('DELETE FROM events WHERE id <= (SELECT max(id) FROM events) - $1', [keepLast]);
      return r.rowCount ?? 0;
    },
    async close() {
      clearInterval(poll);
      await listener.close();
      await catchUp.idle();
    },
  };
}

/** A dedicated connection LISTENing on the channel, reconnected after events_listen_retry_ms whenever it is lost. */
function listenForever(url: string, onRecords: () => void, onError: (e: unknown) => void): { close(): Promise<void> } {
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url, application_name: 'avm-events-listen' });
    const lost = (e?: unknown): void => {
      if (e) onError(e);
      if (client !== c) return;
      client = null;
      c.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect(), SHARED_STATE.v.events_listen_retry_ms);
    };
    c.on('notification', onRecords);
    c.on('error', lost);
    c.on('end', () => lost());
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${EVENTS_CHANNEL}`);
      onRecords(); // whatever was appended while this connection was not listening
    } catch (e) {
      lost(e);
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
