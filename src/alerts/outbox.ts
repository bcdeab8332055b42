// The durable alert outbox: records written (and fsynced) before any delivery attempt, their state machine
// pending -> delivered | dead_lettered, every attempt with timestamps and diagnostic, and the `dead_letter` column.
import { createHash } from 'node:crypto';
import { AppError } from '../errors/app-error.js';
import { flushed, KEY_PREFIX, valuesWithPrefix, type AlertStore } from './store.js';

export type Channel = 'webhook' | 'telegram';
export type AlertState = 'pending' | 'delivered' | 'dead_lettered';

export type AttemptRecord = {
  /** Delivery round: 1 for the first, +1 for each resume after a crash or each replay. */
  round: number;
  started_at: string;
  finished_at: string;
  /** Signature timestamp (unix s) of this attempt, for webhooks; each attempt is signed afresh. */
  signed_at_sec: number | null;
  ok: boolean;
  status: number | null;
  diagnostic: string;
};

export type OutboxRecord = {
  /** Derived from the idempotency key; also sent as `webhook-id` so receivers can drop a re-sent alert. */
  id: string;
  idempotency_key: string;
  /** The profile's ref (profile.ts StoredProfile.ref): unique across owners. */
  profile_id: string;
  channel: Channel;
  /** The exact bytes POSTed (webhook: the alert payload JSON; telegram: the sendMessage JSON). */
  body: string;
  state: AlertState;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  rounds: number;
  attempts: AttemptRecord[];
  /** Last diagnostic when dead-lettered; null otherwise. */
  dead_letter: string | null;
  replays: number;
};

/** Deterministic id: the same idempotency key can never create two alerts. */
export function alertIdFor(idempotencyKey: string): string {
  return `al_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
}

export function newOutboxRecord(args: { idempotencyKey: string; profileId: string; channel: Channel; body: string; now: Date }): OutboxRecord {
  const at = args.now.toISOString();
  return {
    id: alertIdFor(args.idempotencyKey),
    idempotency_key: args.idempotencyKey,
    profile_id: args.profileId,
    channel: args.channel,
    body: args.body,
    state: 'pending',
    created_at: at,
    updated_at: at,
    delivered_at: null,
    rounds: 0,
    attempts: [],
    dead_letter: null,
    replays: 0,
  };
}

/** Inside an open transaction: stores the record unless one with the same id exists. Returns whether it was new. */
export function putIfAbsentInTxn(store: AlertStore, rec: OutboxRecord): boolean {
  const key = KEY_PREFIX.alert + rec.id;
  if (store.outbox.get(key) !== undefined) return false;
  store.outbox.put(key, rec);
  return true;
}

/** Durably enqueues records (idempotent per key); resolves only once they are committed and flushed. */
export async function enqueueAlerts(store: AlertStore, records: OutboxRecord[]): Promise<string[]> {
  const added = await store.outbox.transaction(() => records.filter((r) => putIfAbsentInTxn(store, r)).map((r) => r.id));
  await flushed(store);
  return added;
}

export function getAlert(store: AlertStore, id: string): OutboxRecord | undefined {
  return store.outbox.get(KEY_PREFIX.alert + id) as OutboxRecord | undefined;
}

export function listAlerts(store: AlertStore, state?: AlertState): OutboxRecord[] {
  const all = valuesWithPrefix<OutboxRecord>(store.outbox, KEY_PREFIX.alert);
  const picked = state ? all.filter((r) => r.state === state) : all;
  // Oldest first (keys are hashes, so key order means nothing to an operator).
  return picked.sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1));
}

/**
 * Read-modify-write of one record in a transaction, then flush. `change` returns null to leave the record as is
 * (e.g. it is no longer pending because another process finished it).
 */
async function update(store: AlertStore, id: string, change: (r: OutboxRecord) => OutboxRecord | null): Promise<OutboxRecord | null> {
  const key = KEY_PREFIX.alert + id;
  const next = await store.outbox.transaction(() => {
    const cur = store.outbox.get(key) as OutboxRecord | undefined;
    if (!cur) return null;
    const changed = change(cur);
    if (changed) store.outbox.put(key, changed);
    return changed;
  });
  await flushed(store);
  return next;
}

/** Starts a delivery round on a pending record; null when it is not pending (never re-send a delivered alert). */
export function beginRound(store: AlertStore, id: string, now: Date): Promise<OutboxRecord | null> {
  return update(store, id, (r) => (r.state === 'pending' ? { ...r, rounds: r.rounds + 1, updated_at: now.toISOString() } : null));
}

/** Appends an attempt; a successful one marks the record delivered in the same durable write. */
export function recordAttempt(store: AlertStore, id: string, attempt: AttemptRecord): Promise<OutboxRecord | null> {
  return update(store, id, (r) => {
    if (r.state !== 'pending') return null;
    const base = { ...r, attempts: [...r.attempts, attempt], updated_at: attempt.finished_at };
    return attempt.ok ? { ...base, state: 'delivered', delivered_at: attempt.finished_at, dead_letter: null } : base;
  });
}

export function markDeadLettered(store: AlertStore, id: string, diagnostic: string, now: Date): Promise<OutboxRecord | null> {
  return update(store, id, (r) =>
    r.state === 'pending' ? { ...r, state: 'dead_lettered', dead_letter: diagnostic, updated_at: now.toISOString() } : null,
  );
}

/** Moves a dead letter back to pending for a replay; refuses anything else (a delivered alert is never re-sent). */
export async function reopenDeadLetter(store: AlertStore, id: string, now: Date): Promise<OutboxRecord> {
  const cur = getAlert(store, id);
  if (cur?.state !== 'dead_lettered') throw notReplayable(id, cur);
  const next = await update(store, id, (r) =>
    r.state === 'dead_lettered' ? { ...r, state: 'pending', replays: r.replays + 1, updated_at: now.toISOString() } : null,
  );
  if (!next) throw new AppError('validation_failed', `alert ${id} changed state during replay`);
  return next;
}

/** The refusal of a replay of something that is not a dead letter (both outbox implementations). */
export function notReplayable(id: string, rec: OutboxRecord | undefined): AppError {
  if (!rec) return new AppError('not_found', `no alert ${id}`);
  return new AppError('validation_failed', `alert ${id} is ${rec.state}, not dead_lettered; only dead letters can be replayed`);
}
