// The durable, ordered event log behind the sync stream: LMDB `events` sub-db keyed by an increasing integer.
// appendEvent resolves only after the record is committed AND flushed to disk and handed to subscribers, in id order.
import type { RootDatabase } from 'lmdb';
import { AppError } from '../errors/app-error.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { EventKindSchema, type EventKind, type EventRecord } from './kinds.js';

export type AppendInput = { kind: EventKind; payload: unknown; actor: string };

export type EventLog = {
  appendEvent(input: AppendInput): Promise<EventRecord>;
  /** Records with id > afterId, oldest first, but only the newest `max` of them (bounded replay). */
  readAfter(afterId: number, max: number): EventRecord[];
  lastId(): number;
  /** Called with each durable record in id order; returns the unsubscribe function. */
  subscribe(listener: (rec: EventRecord) => void): () => void;
  /** Deletes records older than the newest `keepLast` (they can no longer be replayed); returns how many went. */
  prune(keepLast: number): Promise<number>;
  /** Live subscribers (open streams); lets tests and health checks see that disconnects clean up. */
  listenerCount(): number;
};

const LOGS = new WeakMap<RootDatabase, EventLog>();

/**
 * One log per LMDB environment, created on first use (`opts` apply only then). The sequence counter lives in memory,
 * so only one process may append to an environment's events: the server; CLIs must not.
 */
export function getEventLog(env: RootDatabase, opts: { now?: () => number } = {}): EventLog {
  let log = LOGS.get(env);
  if (!log) {
    log = createEventLog(env, opts.now ?? Date.now);
    LOGS.set(env, log);
  }
  return log;
}

function createEventLog(env: RootDatabase, now: () => number): EventLog {
  const db = openSubDb<EventRecord>(env, DB_NAMES.events);
  let seq = Number([...db.getKeys({ reverse: true, limit: 1 })][0] ?? 0);
  const listeners = new Set<(rec: EventRecord) => void>();
  // Notifications are chained so listeners always see ids in order, even if commits resolve out of order.
  let notifyChain: Promise<void> = Promise.resolve();

  return {
    async appendEvent(input) {
      const kind = EventKindSchema.safeParse(input.kind);
      if (!kind.success) throw new AppError('validation_failed', `unknown event kind "${String(input.kind)}"`);
      const rec: EventRecord = { id: ++seq, kind: kind.data, at: new Date(now()).toISOString(), actor: input.actor, payload: input.payload ?? null };
      const durable = db.put(rec.id, rec).then(() => db.flushed);
      const notified = notifyChain.then(() => durable).then(() => {
        for (const l of listeners) {
          try {
            l(rec);
          } catch {
            // a failing subscriber (closed socket) must not block the others or the writer
          }
        }
      });
      const mine = (notifyChain = notified.catch(() => undefined));
      await durable;
      await mine; // resolve only once live subscribers have it, so an acknowledged write is already on the stream
      return rec;
    },
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
