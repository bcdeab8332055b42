// Three real replicas of the service on one PostgreSQL database (issue 18, operations): the 31st anonymous call in a
// minute across replicas gets 429; alerts raced for by every replica's outbox sweep reach the receiver once each; a
// replica killed (SIGKILL) while it holds a delivery claim has that delivery completed by another replica once the
// lease lapses; the daily listings run runs once across replicas. One local HTTP receiver counts deliveries: as the
// webhook of an alert profile stored in PostgreSQL (AVM_ALLOW_PRIVATE_WEBHOOKS=true), and as the Telegram Bot API
// (AVM_TELEGRAM_BASE_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile } from '../../../src/alerts/profile.js';
import { openStateBackend } from '../../../src/store/backend.js';
import { openEnv } from '../../../src/store/env.js';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import { newOutboxRecord } from '../../../src/alerts/outbox.js';
import { openPgOutbox } from '../../../src/alerts/outbox-pg.js';
import { openPgPool, type PgPool } from '../../../src/store/pg/pool.js';
import { ALERTS } from '../../../src/registry/groups/alerts.js';
import { AUTH_LIMITS } from '../../../src/registry/groups/auth.js';
import { profileBody, startReceiver, type Receiver } from '../../alerts/support.js';
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
const webhookAlert = (key: string, profileRef: string) =>
  newOutboxRecord({ idempotencyKey: key, profileId: profileRef, channel: 'webhook', body: JSON.stringify({ key }), now: new Date() });
const telegramAlert = (key: string) =>
  newOutboxRecord({ idempotencyKey: key, profileId: 'k1/p1', channel: 'telegram', body: JSON.stringify({ chat_id: '1', text: key }), now: new Date() });

describe.skipIf(!PG_AVAILABLE)('three replicas on one database: rate limit, outbox, daily run', () => {
  let cluster: LocalCluster;
  let set: ReplicaSet;
  let pool: PgPool;
  let rx: Receiver;
  let databaseUrl: string;
  /** Bodies whose first request the receiver leaves unanswered (a replica is killed while waiting on it). */
  const hangFirst = new Set<string>();
  /** Bodies answered 200, with how often. */
  const answered = new Map<string, number>();

  beforeAll(async () => {
    cluster = await startLocalCluster();
    databaseUrl = cluster.createDatabase('replica_ops');
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

  it('every replica serves the shared model registry (the first seeded it, the others mirrored it at start)', async () => {
    const synced = set.replicas.map((r) => JSON.parse(r.logLines.find((l) => l.includes('"msg":"model registry synced"')) ?? '{}') as { direction?: string });
    // The served corpus holds a champion: the first replica finds the shared registry empty and seeds it.
    expect(synced.map((x) => x.direction)).toEqual(['seeded_shared', 'mirrored_local', 'mirrored_local']);
    const docs = await Promise.all(
      [0, 1, 2].map(async (i) => (await (await fetch(`${set.url(i)}/api/model-registry`, { headers: { 'x-forwarded-for': '198.51.100.40' } })).json()) as Record<string, unknown>),
    );
    expect(docs[0].champion).not.toBeNull();
    expect(docs[1].champion).toEqual(docs[0].champion);
    expect(docs[2].history).toEqual(docs[0].history);
    const shared = (await pool.query<{ doc: { history: unknown[] } }>('SELECT doc FROM model_registry WHERE id = 1')).rows[0]?.doc;
    expect(shared?.history ?? []).toEqual(docs[0].history);
  }, 30_000);

  it('webhook alerts raced for by three replicas are delivered once each', async () => {
    // The profile (webhook URL + secret) lives in PostgreSQL, where every replica reads it.
    const dir = mkdtempSync(join(tmpdir(), 'avm-profile-'));
    const env = openEnv(dir);
    const backend = await openStateBackend({ databaseUrl }, env);
    const profile = await createProfile(backend.alerts, profileBody(rx.url), { ownerId: 'k1', allowPrivate: true });
    await backend.close();
    await env.close();
    rmSync(dir, { recursive: true, force: true });
    const outbox = openPgOutbox(pool);
    const recs = Array.from({ length: 12 }, (_, i) => webhookAlert(`race-${i}`, profile.ref));
    await outbox.enqueue(recs);
    await until('all delivered', async () => (await outbox.list('pending')).length === 0, 60_000);
    for (const r of recs) {
      expect(answered.get(r.body)).toBe(1);
      const stored = await outbox.get(r.id);
      expect(stored?.state).toBe('delivered');
      expect(stored?.attempts.filter((a) => a.ok)).toHaveLength(1);
    }
    const hooks = rx.received.filter((r) => r.path === '/hook');
    expect(hooks).toHaveLength(12);
    expect(new Set(hooks.map((r) => r.headers['webhook-id'])).size).toBe(12);
    expect(hooks.every((r) => typeof r.headers['webhook-signature'] === 'string')).toBe(true);
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
