// The alert outbox on PostgreSQL (table alert_outbox, db/migrations/0201), shared by every replica. Claims take rows
// with FOR UPDATE SKIP LOCKED (two replicas scanning at once never wait on, nor take, each other's rows) and record a
// lease (owner + expiry on the database clock, so replicas' clocks need not agree); every write of a round checks the
// owner, so a replica that lost its lease cannot mark someone else's delivery.
import type pg from 'pg';
import { inTransaction, type PgPool } from '../store/pg/pool.js';
import { notReplayable, type AlertState, type AttemptRecord, type OutboxRecord } from './outbox.js';
import type { AlertOutbox } from './outbox-store.js';

type Row = {
  id: string; idempotency_key: string; profile_id: string; channel: OutboxRecord['channel']; body: string; state: AlertState;
  created_at: Date; updated_at: Date; delivered_at: Date | null; rounds: number; attempts: AttemptRecord[]; dead_letter: string | null; replays: number;
};

const COLUMNS = 'id, idempotency_key, profile_id, channel, body, state, created_at, updated_at, delivered_at, rounds, attempts, dead_letter, replays';
const CLAIMABLE = `state = 'pending' AND (lease_expires_at IS NULL OR lease_expires_at <= clock_timestamp())`;
const LEASE_UNTIL = (param: string): string => `clock_timestamp() + ${param} * interval '1 millisecond'`;

function recordOf(r: Row): OutboxRecord {
  return {
    id: r.id, idempotency_key: r.idempotency_key, profile_id: r.profile_id, channel: r.channel, body: r.body, state: r.state,
    created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString(), delivered_at: r.delivered_at?.toISOString() ?? null,
    rounds: r.rounds, attempts: r.attempts, dead_letter: r.dead_letter, replays: r.replays,
  };
}

const one = (res: pg.QueryResult<Row>): OutboxRecord | null => (res.rows[0] ? recordOf(res.rows[0]) : null);

export function openPgOutbox(pool: PgPool): AlertOutbox {
  const claimWhere = async (where: string, values: unknown[], owner: string, leaseMs: number, now: Date): Promise<OutboxRecord[]> => {
    const n = values.length;
    const res = await pool.query<Row>(
      `UPDATE alert_outbox o SET rounds = o.rounds + 1, updated_at = $${n + 1}, lease_owner = $${n + 2}, lease_expires_at = ${LEASE_UNTIL(`$${n + 3}`)}
       FROM (SELECT id FROM alert_outbox WHERE ${where} FOR UPDATE SKIP LOCKED) c
       WHERE o.id = c.id RETURNING ${COLUMNS.split(', ').map((col) => `o.${col}`).join(', ')}`,
      [...values, now.toISOString(), owner, leaseMs],
    );
    return res.rows.map(recordOf).sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1));
  };
  return {
    enqueue: (records) =>
      inTransaction(pool, async (c) => {
        const added: string[] = [];
        for (const r of records) {
          const res = await c.query(
            `INSERT INTO alert_outbox (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING RETURNING id`,
            [r.id, r.idempotency_key, r.profile_id, r.channel, r.body, r.state, r.created_at, r.updated_at, r.delivered_at, r.rounds, JSON.stringify(r.attempts), r.dead_letter, r.replays],
          );
          if (res.rowCount) added.push(r.id);
        }
        return added;
      }),
    get: async (id) => one(await pool.query<Row>(`SELECT ${COLUMNS} FROM alert_outbox WHERE id = $1`, [id])) ?? undefined,
    list: async (state) => {
      const res = state
        ? await pool.query<Row>(`SELECT ${COLUMNS} FROM alert_outbox WHERE state = $1 ORDER BY created_at, id`, [state])
        : await pool.query<Row>(`SELECT ${COLUMNS} FROM alert_outbox ORDER BY created_at, id`);
      return res.rows.map(recordOf);
    },
    claim: async (id, c, now) => (await claimWhere(`id = $1 AND ${CLAIMABLE}`, [id], c.owner, c.leaseMs, now))[0] ?? null,
    claimDue: (c, now, limit) => claimWhere(`${CLAIMABLE} ORDER BY created_at, id LIMIT $1`, [limit], c.owner, c.leaseMs, now),
    recordAttempt: async (id, c, a) =>
      one(
        await pool.query<Row>(
          `UPDATE alert_outbox SET attempts = attempts || $3::jsonb, updated_at = $4,
             state = CASE WHEN $5 THEN 'delivered' ELSE state END,
             delivered_at = CASE WHEN $5 THEN $4::timestamptz ELSE delivered_at END,
             dead_letter = CASE WHEN $5 THEN NULL ELSE dead_letter END,
             lease_owner = CASE WHEN $5 THEN NULL ELSE lease_owner END,
             lease_expires_at = CASE WHEN $5 THEN NULL ELSE ${LEASE_UNTIL('$6')} END
           WHERE id = $1 AND state = 'pending' AND lease_owner = $2 RETURNING ${COLUMNS}`,
          [id, c.owner, JSON.stringify([a]), a.finished_at, a.ok, c.leaseMs],
        ),
      ),
    deadLetter: async (id, c, diagnostic, now) =>
      one(
        await pool.query<Row>(
          `UPDATE alert_outbox SET state = 'dead_lettered', dead_letter = $3, updated_at = $4, lease_owner = NULL, lease_expires_at = NULL
           WHERE id = $1 AND state = 'pending' AND lease_owner = $2 RETURNING ${COLUMNS}`,
          [id, c.owner, diagnostic, now.toISOString()],
        ),
      ),
    async reopenDeadLetter(id, now) {
      const res = await pool.query<Row>(
        `UPDATE alert_outbox SET state = 'pending', replays = replays + 1, updated_at = $2, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = $1 AND state = 'dead_lettered' RETURNING ${COLUMNS}`,
        [id, now.toISOString()],
      );
      const rec = one(res);
      if (rec) return rec;
      throw notReplayable(id, (await this.get(id)) ?? undefined);
    },
  };
}
