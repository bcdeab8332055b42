// Owned user state in PostgreSQL (issue 18): the OwnedState of src/events/owned-state.ts shared by every replica.
// A write runs in one transaction: the owner's advisory lock (so a cap check and its write, or two writes of one
// record, never interleave across replicas), the prior record, the new one with the next user_state_seq, and the
// stream record (src/store/pg/events.ts); the write resolves after commit once this replica's subscribers have it.
import { AppError } from '../../errors/app-error.js';
import type { OwnedState } from '../../events/owned-state.js';
import type { Owned, PageItem, StateKind } from '../../events/owned-records.js';
import type { PgEventLog } from './events.js';
import { inTransaction, type PgPool } from './pool.js';

/** First key of the two-key advisory locks of owners (the second is hashtext(owner)); unique to this purpose. */
const OWNER_LOCK_SPACE = 727_101;

function checkOwner(owner: string): string {
  if (typeof owner !== 'string' || owner === '' || owner.includes('/')) throw new AppError('internal_error', `not an owner: ${String(owner)}`);
  return owner;
}

export function openPgOwnedState(pool: PgPool, events: PgEventLog): OwnedState {
  const records = async <T>(sql: string, args: unknown[]): Promise<T[]> => (await pool.query<{ record: T }>(sql, args)).rows.map((r) => r.record);
  return {
    async write(w) {
      checkOwner(w.owner);
      const out = await inTransaction(pool, async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [OWNER_LOCK_SPACE, w.owner]);
        // The prior record, the owner's count of the kind (when capped) and the next seq in one round trip (a refused write leaves a
        // gap in user_state_seq, which only orders).
        const got = (await c.query<{ prior: never; n: string; s: string }>(
          "SELECT (SELECT record FROM user_state WHERE kind = $1 AND owner_id = $2 AND id = $3) AS prior, CASE WHEN $4 THEN (SELECT count(*) FROM user_state WHERE kind = $1 AND owner_id = $2) END AS n, nextval('user_state_seq') AS s",
          [w.kind, w.owner, w.id, w.cap !== undefined],
        )).rows[0];
        const prior = got.prior ?? undefined;
        if (!prior && w.cap && Number(got.n) >= w.cap.max) throw w.cap.refusal();
        const seq = Number(got.s);
        const value = { ...w.build(prior), owner_id: w.owner, seq };
        await c.query(
          `INSERT INTO user_state (kind, owner_id, id, seq, record) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (kind, owner_id, id) DO UPDATE SET seq = EXCLUDED.seq, record = EXCLUDED.record`,
          [w.kind, w.owner, w.id, seq, JSON.stringify(value)],
        );
        const event = w.event ? await events.appendInTx(c, w.event(value)) : null;
        return { value, event };
      });
      if (out.event) await events.delivered(out.event.id);
      return out;
    },
    async get<T>(kind: StateKind, owner: string, id: string) {
      return (await records<Owned<T>>('SELECT record FROM user_state WHERE kind = $1 AND owner_id = $2 AND id = $3', [kind, checkOwner(owner), id]))[0];
    },
    async count(kind, owner) {
      return Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM user_state WHERE kind = $1 AND owner_id = $2', [kind, checkOwner(owner)])).rows[0].n);
    },
    list: <T>(kind: StateKind, owner: string) => records<Owned<T>>('SELECT record FROM user_state WHERE kind = $1 AND owner_id = $2 ORDER BY id', [kind, checkOwner(owner)]),
    listKind: <T>(kind: StateKind) => records<Owned<T>>('SELECT record FROM user_state WHERE kind = $1 ORDER BY owner_id, id', [kind]),
    async page(owner, o) {
      const rows = (await pool.query<{ kind: StateKind; id: string; seq: string; record: Owned<Record<string, unknown>> }>(
        'SELECT kind, id, seq, record FROM user_state WHERE owner_id = $1 AND kind = ANY($2) AND ($3::bigint IS NULL OR seq < $3) ORDER BY seq DESC LIMIT $4',
        [checkOwner(owner), [...o.kinds], o.beforeSeq, o.limit + 1],
      )).rows;
      const items: PageItem[] = rows.slice(0, o.limit).map((r) => ({ kind: r.kind, id: r.id, seq: Number(r.seq), record: r.record }));
      return { items, more: rows.length > o.limit };
    },
  };
}
