// The digest on PostgreSQL: per profile, one transaction locks the profile's day-mark row, reads its dedupe marks,
// decides with the same rule as LMDB (digest.ts decideDigest), and writes the outbox rows, the marks and the day mark
// together, so a crash leaves all of them or none and two runs at once never push a profile twice in a day.
import type pg from 'pg';
import { inTransaction, type PgPool } from '../store/pg/pool.js';
import { utcDay } from '../store/days.js';
import { decideDigest, freshRows, type DigestResult, type DigestRun, type ProfileOutcome } from './digest.js';
import type { SeenState } from './matcher.js';
import type { OutboxRecord } from './outbox.js';
import { listActiveProfiles } from './profile.js';
import type { AlertStore } from './store.js';

async function insertRecord(c: pg.PoolClient, r: OutboxRecord): Promise<void> {
  await c.query(
    `INSERT INTO alert_outbox (id, idempotency_key, profile_id, channel, body, state, created_at, updated_at, delivered_at, rounds, attempts, dead_letter, replays)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING`,
    [r.id, r.idempotency_key, r.profile_id, r.channel, r.body, r.state, r.created_at, r.updated_at, r.delivered_at, r.rounds, JSON.stringify(r.attempts), r.dead_letter, r.replays],
  );
}

/** Matches, dedupes and queues digests into the shared outbox; `store` supplies the profiles. */
export async function runDigestPg(pool: PgPool, store: AlertStore, run: DigestRun): Promise<DigestResult> {
  const day = utcDay(run.now);
  const fresh = freshRows(run);
  const profiles = run.profiles ?? (await listActiveProfiles(store));
  const outcomes: ProfileOutcome[] = [];
  for (const p of profiles) {
    outcomes.push(
      await inTransaction(pool, async (c) => {
        await c.query('INSERT INTO alert_digest_days (profile_ref, day) VALUES ($1, NULL) ON CONFLICT (profile_ref) DO NOTHING', [p.ref]);
        const lastDay = (await c.query<{ day: string | null }>('SELECT day FROM alert_digest_days WHERE profile_ref = $1 FOR UPDATE', [p.ref])).rows[0].day ?? undefined;
        // Only the candidates' marks (the profile's history grows every day), as the LMDB side reads only their keys.
        const seenRows = await c.query<{ listing_id: string; state: SeenState }>('SELECT listing_id, state FROM alert_seen WHERE profile_ref = $1 AND listing_id = ANY($2)', [p.ref, fresh.map((r) => r.listing_id)]);
        const seen = new Map(seenRows.rows.map((r) => [r.listing_id, r.state]));
        const { outcome, writes } = decideDigest(p, fresh, run, day, (lid) => seen.get(lid), lastDay);
        for (const rec of writes.records) await insertRecord(c, rec);
        for (const [lid, state] of writes.seen) {
          await c.query('INSERT INTO alert_seen (profile_ref, listing_id, state) VALUES ($1, $2, $3) ON CONFLICT (profile_ref, listing_id) DO UPDATE SET state = EXCLUDED.state', [p.ref, lid, JSON.stringify(state)]);
        }
        if (writes.markDay) await c.query('UPDATE alert_digest_days SET day = $2 WHERE profile_ref = $1', [p.ref, day]);
        return outcome;
      }),
    );
  }
  const alertIds = outcomes.flatMap((o) => (o.status === 'queued' ? o.alert_ids : []));
  return { day, stale_rows: run.rows.length - fresh.length, profiles: outcomes, alert_ids: alertIds };
}
