// Three real replicas of the service on one PostgreSQL database (issue 18, operations): the 31st anonymous call in a
// minute across replicas gets 429; alerts raced for by every replica's outbox sweep reach the receiver once each; a
// replica killed (SIGKILL) while it holds a delivery claim has that delivery completed by another replica once the
// lease lapses; the daily listings run runs once across replicas. The receiver is a local HTTP server standing in for
// the Telegram Bot API (AVM_TELEGRAM_BASE_URL), so alerts need no profile lookup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import { newOutboxRecord } from '../../../src/alerts/outbox.js';
import { openPgOutbox } from '../../../src/alerts/outbox-pg.js';
import { openPgPool, type PgPool } from '../../../src/store/pg/pool.js';
import { ALERTS } from '../../../src/registry/groups/alerts.js';
import { AUTH_LIMITS } from '../../../src/registry/groups/auth.js';
import { startReceiver, type Receiver } from '../../alerts/support.js';
import { PG_AVAILABLE } from '../../support/pg-backends.js';
import { startReplicas, type ReplicaSet } from '../../support/replicas.js';

const BOT = '4242:replica-test';
const until = async (what: string, check: () => Promise<boolean> | boolean, limitMs: number): Promise<void> => {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > limitMs) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const telegramAlert = (key: string) =>
  newOutboxRecord({ idempotencyKey: key, profileId: 'k1/p1', channel: 'telegram', body: JSON.stringify({ chat_id: '1', text: key }), now: new Date() });

describe.skipIf(!PG_AVAILABLE)('three replicas on one database: rate limit, outbox, daily run', () => {
  let cluster: LocalCluster;
  let set: ReplicaSet;
  let pool: PgPool;
  let rx: Receiver;
  /** Bodies whose first request the receiver leaves unanswered (a replica is killed while waiting on it). */
  const hangFirst = new Set<string>();
  /** Bodies answered 200, with how often. */
  const answered = new Map<string, number>();

  beforeAll(async () => {
    cluster = await startLocalCluster();
    const databaseUrl = cluster.createDatabase('replica_ops');
    rx = await startReceiver((_n, r) => {
      if (hangFirst.delete(r.body)) return { kind: 'hang' };
      answered.set(r.body, (answered.get(r.body) ?? 0) + 1);
      return { kind: 'status', status: 200, body: '{"ok":true}' };
    });
    set = await startReplicas(3, {
      databaseUrl,
      startTimeoutMs: 120_000,
      env: {
        AVM_BACKGROUND_JOBS: 'true', AVM_TRUST_PROXY: 'true', AVM_ALLOW_PRIVATE_WEBHOOKS: 'true',
        AVM_TELEGRAM_BASE_URL: new URL(rx.url).origin, AVM_TELEGRAM_BOT_TOKEN: BOT,
      },
    });
    pool = openPgPool(databaseUrl, { max: 2 });
  }, 420_000);
  afterAll(async () => {
    await set?.stopAll();
    await pool?.end();
    await rx?.close();
    cluster?.stop();
  }, 60_000);

  it('the 31st anonymous call in a minute from one client, spread over the replicas, gets 429', async () => {
    const limit = AUTH_LIMITS.v.anon_calls_per_window;
    const headers = { 'x-forwarded-for': '198.51.100.31' };
    for (let i = 0; i < limit; i++) {
      const res = await fetch(`${set.url(i % 3)}/api/health`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(limit - 1 - i));
    }
    const res = await fetch(`${set.url(limit % 3)}/api/health`, { headers });
    expect(res.status).toBe(429);
    expect(res.headers.get('ratelimit-policy')).toBe(`${limit};w=60`);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe('rate_limited');
    // Another client is not affected.
    expect((await fetch(`${set.url(1)}/api/health`, { headers: { 'x-forwarded-for': '198.51.100.32' } })).status).toBe(200);
  }, 60_000);

  it('the daily listings run ran once across the replicas (the latest slot, made up at start)', async () => {
    await until('the day run to finish', async () => (await pool.query('SELECT 1 FROM listings_daily_runs WHERE finished_at IS NOT NULL')).rowCount === 1, 180_000);
    const rows = (await pool.query<{ owner: string; outcome: string }>('SELECT owner, outcome FROM listings_daily_runs')).rows;
    expect(rows).toHaveLength(1);
    const lines = (msg: string) => set.replicas.flatMap((r) => r.logLines.filter((l) => l.includes(`"msg":"${msg}"`)));
    await until('every replica to decide', () => lines('daily listings run skipped').length + lines('listings run finished').length + lines('listings run failed').length >= 3, 60_000);
    expect(lines('listings run finished').length + lines('listings run failed').length).toBe(1);
    expect(lines('daily listings run skipped')).toHaveLength(2);
  }, 300_000);

  it('alerts raced for by three replicas are delivered once each', async () => {
    const outbox = openPgOutbox(pool);
    const recs = Array.from({ length: 12 }, (_, i) => telegramAlert(`race-${i}`));
    await outbox.enqueue(recs);
    await until('all delivered', async () => (await outbox.list('pending')).length === 0, 60_000);
    for (const r of recs) {
      expect(answered.get(r.body)).toBe(1);
      const stored = await outbox.get(r.id);
      expect(stored?.state).toBe('delivered');
      expect(stored?.attempts.filter((a) => a.ok)).toHaveLength(1);
    }
    expect(rx.received.filter((r) => r.path === `/bot${BOT}/sendMessage`).length).toBeGreaterThanOrEqual(12);
  }, 90_000);

  it('a replica killed while it holds a claim: another replica completes the delivery after the lease lapses', async () => {
    const outbox = openPgOutbox(pool);
    const rec = telegramAlert('killed-holder');
    hangFirst.add(rec.body);
    await outbox.enqueue([rec]);
    await until('the first request to reach the receiver', () => rx.received.some((r) => r.body === rec.body), 30_000);
    const owner = (await pool.query<{ lease_owner: string }>('SELECT lease_owner FROM alert_outbox WHERE id = $1', [rec.id])).rows[0].lease_owner;
    const pid = Number(owner.split(':')[1]);
    const holder = set.replicas.findIndex((r) => r.child.pid === pid);
    expect(holder).toBeGreaterThanOrEqual(0);
    await set.kill9(holder);
    const killedAt = Date.now();
    await until('delivery by another replica', async () => (await outbox.get(rec.id))?.state === 'delivered', ALERTS.v.claim_lease_ms + 3 * ALERTS.v.reclaim_interval_ms);
    const after = (await pool.query<{ lease_owner: string | null }>('SELECT lease_owner FROM alert_outbox WHERE id = $1', [rec.id])).rows[0];
    expect(after.lease_owner).toBeNull();
    const done = await outbox.get(rec.id);
    expect(done?.rounds).toBe(2); // the killed replica's round, then the taker's
    expect(done?.attempts).toHaveLength(1); // the killed replica recorded nothing
    expect(answered.get(rec.body)).toBe(1);
    expect(rx.received.filter((r) => r.body === rec.body)).toHaveLength(2);
    // Not before the lease lapsed: a live claim is never taken.
    expect(Date.now() - killedAt).toBeGreaterThan(ALERTS.v.claim_lease_ms - ALERTS.v.webhook_timeout_ms - 2_000);
  }, 180_000);
});
