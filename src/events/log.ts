// The durable, ordered event log behind the sync stream. EventLog is what the stream and the writers use, whichever
// backend holds it; getEventLog is the embedded one: LMDB `events` sub-db keyed by an increasing integer (PostgreSQL:
// src/store/pg/events.ts). appendEvent resolves only after the record is committed AND flushed to disk and handed to
// this process's subscribers, in id order.
import type { RootDatabase } from 'lmdb';
import { AppError } from '../errors/app-error.js';
import type { Awaitable } from '../store/awaitable.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { EventKindSchema, type EventKind, type EventRecord } from './kinds.js';

/** `owner` names the owner of the user state a record reports (absent on public map-control records). */
export type AppendInput = { kind: EventKind; payload: unknown; actor: string; owner?: string };

/** What `appendWith`'s write step returns: the stream record to append and the caller's own result. */
export type Appended<T> = { event: AppendInput; value: T };

export type EventLog = {
  appendEvent(input: AppendInput): Promise<EventRecord>;
  /** Records with id > afterId, oldest first, but only the newest `max` of them (bounded replay). */
  readAfter(afterId: number, max: number): Awaitable<EventRecord[]>;
  /** Records with id > afterId, newest first, stopping after `maxScan` records (the caller filters and bounds). */
  newestAfter(afterId: number, maxScan: number): Awaitable<Iterable<EventRecord>>;
  lastId(): Awaitable<number>;
  /** Called with each durable record in id order (every replica's, on PostgreSQL); returns the unsubscribe function. */
  subscribe(listener: (rec: EventRecord) => void): () => void;
  /** Deletes records older than the newest `keepLast` (they can no longer be replayed); returns how many went. */
  prune(keepLast: number): Promise<number>;
  /** Live subscribers (open streams); lets tests and health checks see that disconnects clean up. */
  listenerCount(): number;
};

/** The LMDB log answers reads synchronously and appends inside a caller's LMDB transaction (appendWith). */
export type LmdbEventLog = Omit<EventLog, 'readAfter' | 'newestAfter' | 'lastId'> & {
  /**
   * Runs `write` (reads and writes of user state) and appends the stream record it returns in ONE transaction, so the
   * state and its stream record commit together or not at all. `write` may throw (a refusal): nothing is written.
   * Resolves once committed, flushed and handed to subscribers.
   */
  appendWith<T>(write: () => Appended<T>): Promise<{ rec: EventRecord; value: T }>;
  readAfter(afterId: number, max: number): EventRecord[];
  newestAfter(afterId: number, maxScan: number): Iterable<EventRecord>;
  lastId(): number;
};

/** Validates a record's kind and builds the stored record (both backends). */
export function eventRecordOf(id: number, input: AppendInput, nowMs: number): EventRecord {
  const kind = EventKindSchema.safeParse(input.kind);
  if (!kind.success) throw new AppError('validation_failed', `unknown event kind "${String(input.kind)}"`);
  return { id, kind: kind.data, at: new Date(nowMs).toISOString(), actor: input.actor, ...(input.owner ? { owner: input.owner } : {}), payload: input.payload ?? null };
}

/** Hands `rec` to every listener; a failing one (closed socket) must not block the others or the writer. */
export function notifyAll(listeners: Iterable<(rec: EventRecord) => void>, rec: EventRecord): void {
  for (const l of listeners) {
    try {
      l(rec);
    } catch {
      // see above
    }
  }
}

const LOGS = new WeakMap<RootDatabase, LmdbEventLog>();

/**
 * One log per LMDB environment, created on first use (`opts` apply only then). The sequence counter lives in memory,
 * so only one process may append to an environment's events: the server; CLIs must not.
 */
export function getEventLog(env: RootDatabase, opts: { now?: () => number } = {}): LmdbEventLog {
  let log = LOGS.get(env);
  if (!log) {
    log = createEventLog(env, opts.now ?? Date.now);
    LOGS.set(env, log);
  }
  return log;
}

function createEventLog(env: RootDatabase, now: () => number): LmdbEventLog {
  const db = openSubDb<EventRecord>(env, DB_NAMES.events);
  let seq = Number([...db.getKeys({ reverse: true, limit: 1 })][0] ?? 0);
  const listeners = new Set<(rec: EventRecord) => void>();
  // Notifications are chained so listeners always see ids in order, even if commits resolve out of order.
  let notifyChain: Promise<void> = Promise.resolve();

  const notify = (rec: EventRecord): void => notifyAll(listeners, rec);
  const appendWith = async <T>(write: () => Appended<T>): Promise<{ rec: EventRecord; value: T }> => {
    // The id is taken inside the transaction callback: callbacks run in call order, so ids follow call order and the
    // notification chain below (also in call order) hands subscribers ids in order. A throwing callback takes no id.
    const durable = db
      .childTransaction(() => {
        const { event, value } = write();
        const rec = eventRecordOf(seq + 1, event, now());
        db.put(rec.id, rec);
        seq = rec.id;
        return { rec, value };
      })
      .then(async (r) => {
        await db.flushed;
        return r;
      });
    const notified = notifyChain.then(() => durable).then((r) => notify(r.rec));
    const mine = (notifyChain = notified.catch(() => undefined));
    const result = await durable;
    await mine; // resolve only once live subscribers have it, so an acknowledged write is already on the stream
    return result;
  };

  return {
    appendEvent: async (input) => (await appendWith(() => ({ event: input, value: null }))).rec,
    appendWith,
    newestAfter: (afterId, maxScan) =>
      db.getRange({ start: seq, end: afterId, reverse: true, limit: maxScan }).map(({ value }) => value),
    readAfter(afterId, max) {
      const start = Math.max(afterId + 1, seq - max + 1, 1);
      return [...db.getRange({ start, limit: max })].map(({ value }) => value);
    },
    lastId: () => seq,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listenerCount: () => listeners.size,
    async prune(keepLast) {
      const old = [...db.getKeys({ end: seq - keepLast + 1 })];
      await db.transaction(() => {
        for (const k of old) db.remove(k);
      });
      return old.length;
    },
  };
}
