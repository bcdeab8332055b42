// The outbox as delivery sees it, with two implementations: lmdbOutbox (one process, today's LMDB records) and
// pgOutbox (outbox-pg.ts, replicas on PostgreSQL). A delivery round runs under a claim: the claimer's owner id and a
// lease; a pending alert under someone else's live lease cannot be claimed, every write of the round checks the claim,
// and a claim whose lease lapsed (its process died) is claimable by anyone. Both implementations pass one contract
// (test/alerts/outbox.contract.test.ts).
import * as lmdb from './outbox.js';
import type { AlertState, AttemptRecord, OutboxRecord } from './outbox.js';
import type { AlertStore } from './store.js';

export type Claim = { owner: string; leaseMs: number };

export type AlertOutbox = {
  /** Durably stores the records not already present (same id = same idempotency key); returns the ids added. */
  enqueue(records: OutboxRecord[]): Promise<string[]>;
  get(id: string): Promise<OutboxRecord | undefined>;
  /** Oldest first. */
  list(state?: AlertState): Promise<OutboxRecord[]>;
  /** Claims a pending, unleased (or lease-lapsed) alert and starts its round; null when it is not claimable. */
  claim(id: string, c: Claim, now: Date): Promise<OutboxRecord | null>;
  /** Claims up to `limit` claimable pending alerts, oldest first, skipping those others hold. */
  claimDue(c: Claim, now: Date, limit: number): Promise<OutboxRecord[]>;
  /** Appends an attempt under the claim (renewing its lease); a 2xx marks it delivered. Null when the claim is lost. */
  recordAttempt(id: string, c: Claim, attempt: AttemptRecord): Promise<OutboxRecord | null>;
  /** Dead-letters the alert under the claim; null when the claim is lost. */
  deadLetter(id: string, c: Claim, diagnostic: string, now: Date): Promise<OutboxRecord | null>;
  /** Moves a dead letter back to pending (unclaimed) for a replay; not_found / validation_failed otherwise. */
  reopenDeadLetter(id: string, now: Date): Promise<OutboxRecord>;
};

type Lease = { owner: string; expiresMs: number };

// Leases of the LMDB outbox live in memory, per environment: one process holds the store, and a restart must resume
// every pending alert at once (as before), not wait for a lease written by the process that died.
const leasesByEnv = new WeakMap<object, Map<string, Lease>>();

export function lmdbOutbox(store: AlertStore): AlertOutbox {
  let leases = leasesByEnv.get(store.env);
  if (!leases) leasesByEnv.set(store.env, (leases = new Map()));
  const held = leases;
  const free = (id: string): boolean => {
    const l = held.get(id);
    return l === undefined || l.expiresMs <= Date.now();
  };
  const holds = (id: string, c: Claim): boolean => held.get(id)?.owner === c.owner;
  const lease = (id: string, c: Claim): void => void held.set(id, { owner: c.owner, expiresMs: Date.now() + c.leaseMs });
  const claim = async (id: string, c: Claim, now: Date): Promise<OutboxRecord | null> => {
    if (!free(id)) return null;
    lease(id, c); // taken before the write: a second claimer in this process sees it at once
    const rec = await lmdb.beginRound(store, id, now);
    if (!rec) held.delete(id);
    return rec;
  };
  return {
    enqueue: (records) => lmdb.enqueueAlerts(store, records),
    get: async (id) => lmdb.getAlert(store, id),
    list: async (state) => lmdb.listAlerts(store, state),
    claim,
    async claimDue(c, now, limit) {
      const out: OutboxRecord[] = [];
      for (const r of lmdb.listAlerts(store, 'pending')) {
        if (out.length >= limit) break;
        const got = free(r.id) ? await claim(r.id, c, now) : null;
        if (got) out.push(got);
      }
      return out;
    },
    async recordAttempt(id, c, attempt) {
      if (!holds(id, c)) return null;
      const rec = await lmdb.recordAttempt(store, id, attempt);
      if (rec && rec.state === 'pending') lease(id, c);
      else held.delete(id);
      return rec;
    },
    async deadLetter(id, c, diagnostic, now) {
      if (!holds(id, c)) return null;
      held.delete(id);
      return lmdb.markDeadLettered(store, id, diagnostic, now);
    },
    async reopenDeadLetter(id, now) {
      const rec = await lmdb.reopenDeadLetter(store, id, now);
      held.delete(id);
      return rec;
    },
  };
}

