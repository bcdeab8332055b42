// One contract, two outboxes: the LMDB outbox of one process and the PostgreSQL outbox shared by replicas. Claims,
// leases, lease lapse, SKIP LOCKED sharing, attempts, dead letters and replays behave the same on both; and a delivery
// raced by two owners (two replicas: two pools on one database) reaches the receiver once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliverPending, type DeliveryContext } from '../../src/alerts/delivery.js';
import { newOutboxRecord, type AttemptRecord } from '../../src/alerts/outbox.js';
import { openPgOutbox } from '../../src/alerts/outbox-pg.js';
import { lmdbOutbox, type AlertOutbox } from '../../src/alerts/outbox-store.js';
import { createProfile } from '../../src/alerts/profile.js';
import { BACKENDS, extraPool, startPgHarness, type PgHarness } from '../support/pg-backends.js';
import { profileBody, startReceiver, tempStore, type TempStore } from './support.js';

const T0 = new Date(Date.UTC(2026, 10, 20, 13, 0, 0));
const rec = (key: string, minutes = 0, profileId = 'k1/p1') =>
  newOutboxRecord({ idempotencyKey: key, profileId, channel: 'webhook', body: JSON.stringify({ key }), now: new Date(T0.getTime() + minutes * 60_000) });
const attempt = (ok: boolean): AttemptRecord => ({ round: 1, started_at: T0.toISOString(), finished_at: T0.toISOString(), signed_at_sec: null, ok, status: ok ? 200 : 500, diagnostic: ok ? 'ok' : 'http_500' });
const A = { owner: 'replica-a', leaseMs: 60_000 };
const B = { owner: 'replica-b', leaseMs: 60_000 };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

let pg: PgHarness;
let lmdbStores: TempStore[] = [];
beforeAll(async () => {
  pg = await startPgHarness();
}, 60_000);
afterAll(() => pg?.stop());
afterEach(async () => {
  await Promise.all(lmdbStores.map((s) => s.close()));
  lmdbStores = [];
});

/** Two handles on one outbox, as two replicas see it (LMDB: one process, two owners; PostgreSQL: two pools). */
async function openTwo(backend: 'lmdb' | 'postgresql'): Promise<{ a: AlertOutbox; b: AlertOutbox; store: TempStore['store'] }> {
  const t = tempStore();
  lmdbStores.push(t);
  if (backend === 'lmdb') return { a: lmdbOutbox(t.store), b: lmdbOutbox(t.store), store: t.store };
  const db = await pg.database();
  return { a: openPgOutbox(db.pool), b: openPgOutbox(extraPool(db, db.url)), store: t.store };
}

describe.each(BACKENDS)('alert outbox contract (%s)', (backend) => {
  it('enqueues once per idempotency key and lists oldest first', async () => {
    const { a, b } = await openTwo(backend);
    expect(await a.enqueue([rec('k2', 2), rec('k1', 1)])).toHaveLength(2);
    expect(await b.enqueue([rec('k1', 1), rec('k3', 3)])).toEqual([rec('k3').id]);
    expect((await b.list()).map((r) => r.idempotency_key)).toEqual(['k1', 'k2', 'k3']);
    const got = await b.get(rec('k1').id);
    expect(got).toEqual(rec('k1', 1));
    expect(await a.get('al_missing')).toBeUndefined();
  });

  it('a claim excludes other owners until it ends; writes under a claim check its owner', async () => {
    const { a, b } = await openTwo(backend);
    const id = rec('k1').id;
    await a.enqueue([rec('k1')]);
    const claimed = await a.claim(id, A, T0);
    expect(claimed?.rounds).toBe(1);
    expect(await b.claim(id, B, T0)).toBeNull();
    expect(await a.claim(id, A, T0)).toBeNull(); // a second round of the same owner would double-send too
    expect(await b.recordAttempt(id, B, attempt(true))).toBeNull();
    const failed = await a.recordAttempt(id, A, attempt(false));
    expect(failed?.state).toBe('pending');
    expect(failed?.attempts).toHaveLength(1);
    expect(await b.claim(id, B, T0)).toBeNull(); // the failed attempt renewed A's lease
    const done = await a.recordAttempt(id, A, attempt(true));
    expect(done?.state).toBe('delivered');
    expect(done?.delivered_at).toBe(T0.toISOString());
    expect(await b.claim(id, B, T0)).toBeNull(); // delivered is never claimable again
    expect((await b.get(id))?.attempts.map((x) => x.ok)).toEqual([false, true]);
  });

  it("a lapsed lease frees the claim: another owner takes it and the first owner's writes are refused", async () => {
    const { a, b } = await openTwo(backend);
    const id = rec('k1').id;
    await a.enqueue([rec('k1')]);
    expect(await a.claim(id, { owner: 'dies', leaseMs: 150 }, T0)).not.toBeNull();
    expect(await b.claim(id, B, T0)).toBeNull();
    await wait(300);
    const taken = await b.claim(id, B, T0);
    expect(taken?.rounds).toBe(2);
    expect(await a.recordAttempt(id, { owner: 'dies', leaseMs: 150 }, attempt(true))).toBeNull();
    expect(await a.deadLetter(id, { owner: 'dies', leaseMs: 150 }, 'x', T0)).toBeNull();
    expect((await b.recordAttempt(id, B, attempt(true)))?.state).toBe('delivered');
  });

  it('claimDue shares the backlog: oldest first, never a row another owner holds', async () => {
    const { a, b } = await openTwo(backend);
    const keys = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    await a.enqueue(keys.map((k, i) => rec(k, i)));
    expect((await a.claimDue(A, T0, 2)).map((r) => r.idempotency_key)).toEqual(['k00', 'k01']);
    const [x, y] = await Promise.all([a.claimDue(A, T0, 5), b.claimDue(B, T0, 5)]);
    const ids = [...x, ...y].map((r) => r.idempotency_key);
    expect(new Set(ids).size).toBe(10);
    expect(ids).not.toContain('k00');
    expect(await b.claimDue(B, T0, 5)).toEqual([]);
  });

  it('dead letters under the claim, replays only dead letters', async () => {
    const { a, b } = await openTwo(backend);
    const id = rec('k1').id;
    await a.enqueue([rec('k1'), rec('k2')]);
    await a.claim(id, A, T0);
    expect(await b.deadLetter(id, B, 'http_500', T0)).toBeNull();
    const dead = await a.deadLetter(id, A, 'http_500', T0);
    expect(dead).toMatchObject({ state: 'dead_lettered', dead_letter: 'http_500' });
    expect((await b.list('dead_lettered')).map((r) => r.id)).toEqual([id]);
    const back = await b.reopenDeadLetter(id, T0);
    expect(back).toMatchObject({ state: 'pending', replays: 1 });
    expect((await b.claim(id, B, T0))?.rounds).toBe(2); // the replay is claimable by anyone
    await expect(a.reopenDeadLetter(rec('k2').id, T0)).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(a.reopenDeadLetter('al_missing', T0)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('two owners racing to deliver the same backlog reach the receiver once per alert', async () => {
    const { a, b, store } = await openTwo(backend);
    const rx = await startReceiver(() => ({ kind: 'status', status: 200 }));
    try {
      // The profile (its webhook URL and secret) is read by whichever owner delivers.
      const profile = await createProfile(store, profileBody(rx.url), { ownerId: 'k1', allowPrivate: true });
      const ctx = (outbox: AlertOutbox, owner: string): DeliveryContext => ({
        store, outbox, owner, allowPrivate: true, telegram: { baseUrl: 'http://127.0.0.1:9', botToken: null },
      });
      await a.enqueue(Array.from({ length: 8 }, (_, i) => rec(`race${i}`, i, profile.ref)));
      const [ra, rb] = await Promise.all([deliverPending(ctx(a, 'replica-a')), deliverPending(ctx(b, 'replica-b'))]);
      expect(ra.delivered.length + rb.delivered.length).toBe(8);
      expect(rx.received).toHaveLength(8);
      expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(8);
      expect((await a.list('delivered')).length).toBe(8);
    } finally {
      await rx.close();
    }
  });
});
