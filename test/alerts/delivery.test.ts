import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listDeadLetters, replayDeadLetter } from '../../src/alerts/cli.js';
import { deliverAlert, resumeDelivery, type DeliveryContext } from '../../src/alerts/delivery.js';
import { getAlert } from '../../src/alerts/outbox.js';
import { createProfile } from '../../src/alerts/profile.js';
import { verifyAlertSignature } from '../../src/alerts/verify.js';
import { loadConfig } from '../../src/config.js';
import { ALERTS } from '../../src/registry/groups/alerts.js';
import { afterListingsRun } from '../../src/alerts/index.js';
import { AlertPayloadSchema } from '../../src/alerts/payload.js';
import { MODEL, row, queueWebhookAlert, startReceiver, tempStore, profileBody, until, type Behaviour, type Receiver, type TempStore } from './support.js';

const SECRET = 'receiver_secret_0123456789';
const T0_MS = Date.UTC(2026, 10, 20, 13, 5, 0); // 2026-11-20T13:05:00Z

let t: TempStore;
let rx: Receiver | undefined;
let sleeps: number[];

/** A clock that moves 1 s forward on every read, so two attempts can never share a signature timestamp by accident. */
function steppingClock(): () => number {
  let n = 0;
  return () => T0_MS + 1000 * n++;
}

async function setup(script: (n: number) => Behaviour, over: Partial<DeliveryContext> = {}): Promise<{ ctx: DeliveryContext; id: string }> {
  rx = await startReceiver((n) => script(n));
  await createProfile(t.store, profileBody(rx.url), { ownerId: 'k1', allowPrivate: true });
  const id = await queueWebhookAlert(t.store, 'p1', 'L100', 200_000);
  sleeps = [];
  const ctx: DeliveryContext = {
    store: t.store,
    allowPrivate: true, // tests post to 127.0.0.1
    telegram: { baseUrl: 'http://127.0.0.1:9', botToken: null },
    sleep: async (ms) => void sleeps.push(ms),
    nowMs: steppingClock(),
    ...over,
  };
  return { ctx, id };
}

const ok: Behaviour = { kind: 'status', status: 204 };
const fail500: Behaviour = { kind: 'status', status: 500, body: 'internal oops' };

beforeEach(() => {
  t = tempStore();
});
afterEach(async () => {
  vi.useRealTimers();
  await rx?.close();
  rx = undefined;
  await t.close();
});

describe('deliverAlert(ctx, id) against a real loopback receiver', () => {
  it('delivers once with verifiable signatures and records one attempt', async () => {
    const { ctx, id } = await setup(() => ok);
    expect(await deliverAlert(ctx, id)).toBe('delivered');
    expect(rx!.received).toHaveLength(1);
    const r = rx!.received[0];
    const ts = Number(r.headers['x-svc-timestamp']);
    expect(verifyAlertSignature(r.body, r.headers, SECRET, ts)).toEqual({ ok: true });
    expect(r.body).toBe(getAlert(t.store, id)!.body);
    expect(r.headers['webhook-id']).toBe(id);
    expect(r.headers['content-type']).toBe('application/json');
    const rec = getAlert(t.store, id)!;
    expect(rec).toMatchObject({ state: 'delivered', dead_letter: null, rounds: 1 });
    expect(rec.attempts.map((a) => [a.ok, a.status])).toEqual([[true, 204]]);
  });

  it('retries a 500 once: exactly 2 attempts, each signed afresh with its own timestamp', async () => {
    const { ctx, id } = await setup((n) => (n === 0 ? fail500 : ok));
    expect(await deliverAlert(ctx, id)).toBe('delivered');
    expect(rx!.received).toHaveLength(2);
    const [a, b] = rx!.received;
    expect(a.headers['x-svc-timestamp']).not.toBe(b.headers['x-svc-timestamp']);
    expect(a.headers['x-svc-signature']).not.toBe(b.headers['x-svc-signature']);
    for (const r of [a, b]) expect(verifyAlertSignature(r.body, r.headers, SECRET, Number(r.headers['x-svc-timestamp']))).toEqual({ ok: true });
    expect(a.headers['webhook-id']).toBe(b.headers['webhook-id']); // idempotency key is stable across retries
    expect(sleeps).toEqual([200]);
    expect(getAlert(t.store, id)!.attempts.map((x) => x.diagnostic)).toEqual(['http_500: internal oops', 'http_204']);
  });

  it('retries a connection reset and then delivers', async () => {
    const { ctx, id } = await setup((n) => (n === 0 ? { kind: 'reset' } : ok));
    expect(await deliverAlert(ctx, id)).toBe('delivered');
    const first = getAlert(t.store, id)!.attempts[0];
    expect(first.ok).toBe(false);
    expect(first.diagnostic).toMatch(/^connection_error: ECONNRESET/);
  });

  it('dead-letters after 3 failures with the last diagnostic in dead_letter, and lists it', async () => {
    const { ctx, id } = await setup((n) => ({ kind: 'status', status: 503, body: `maintenance ${n}` }));
    expect(await deliverAlert(ctx, id)).toBe('dead_lettered');
    expect(rx!.received).toHaveLength(3);
    expect(sleeps).toEqual([200, 400]);
    const rec = getAlert(t.store, id)!;
    expect(rec.state).toBe('dead_lettered');
    expect(rec.dead_letter).toBe('http_503: maintenance 2');
    expect(rec.attempts).toHaveLength(3);
    const listed = await listDeadLetters(t.dir);
    expect(listed).toEqual([expect.objectContaining({ id, attempts: 3, dead_letter: 'http_503: maintenance 2' })]);
  });

  it('tells onOutcome each attempt: a failed one that is retried, then the delivery', async () => {
    const outcomes: string[] = [];
    const { ctx, id } = await setup((n) => (n === 0 ? fail500 : ok), { onOutcome: (o) => void outcomes.push(o) });
    expect(await deliverAlert(ctx, id)).toBe('delivered');
    expect(outcomes).toEqual(['retried', 'delivered']);
  });

  it('tells onOutcome retried twice, then dead_lettered, when all 3 attempts fail', async () => {
    const outcomes: string[] = [];
    const { ctx, id } = await setup(() => fail500, { onOutcome: (o) => void outcomes.push(o) });
    expect(await deliverAlert(ctx, id)).toBe('dead_lettered');
    expect(outcomes).toEqual(['retried', 'retried', 'dead_lettered']);
  });

  it('does not follow a 3xx: it is a failure with the Location in the diagnostic', async () => {
    const { ctx, id } = await setup(() => ({ kind: 'redirect', status: 302, location: 'http://127.0.0.1:1/elsewhere' }));
    expect(await deliverAlert(ctx, id)).toBe('dead_lettered');
    expect(rx!.received.map((r) => r.path)).toEqual(['/hook', '/hook', '/hook']);
    expect(getAlert(t.store, id)!.dead_letter).toBe('redirect_not_followed: http_302 location http://127.0.0.1:1/elsewhere');
  });

  it('refuses at send time when private targets are not allowed (DNS may have changed since creation)', async () => {
    const { ctx, id } = await setup(() => ok, { allowPrivate: false });
    expect(await deliverAlert(ctx, id)).toBe('dead_lettered');
    expect(rx!.received).toHaveLength(0);
    expect(getAlert(t.store, id)!.dead_letter).toMatch(/^webhook_url_refused: .*loopback/);
  });

  it('never sends an alert already recorded delivered', async () => {
    const { ctx, id } = await setup(() => ok);
    await deliverAlert(ctx, id);
    expect(await deliverAlert(ctx, id)).toBe('delivered');
    expect((await resumeDelivery(ctx)).delivered).toEqual([]);
    expect(rx!.received).toHaveLength(1);
  });
});

describe('pinned connection (DNS rebinding between check and connect)', () => {
  it('connects to the address vetted by the guard, not to a second DNS answer', async () => {
    let lookups = 0;
    // The first answer is the vetted one; a rebinding resolver would answer something else on a second lookup.
    const resolver = async (): Promise<Array<{ address: string; family: 4 | 6 }>> => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }]);
    const { ctx, id } = await setup(() => ok, { resolver });
    const port = new URL(rx!.url).port;
    await createProfile(t.store, profileBody(`http://hooks.invalid:${port}/hook`), { ownerId: 'k1', allowPrivate: true, resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(await deliverAlert(ctx, id)).toBe('delivered');
    expect(lookups).toBe(1); // `.invalid` never resolves in real DNS: the socket used the pinned 127.0.0.1
    expect(rx!.received[0].headers.host).toBe(`hooks.invalid:${port}`);
  });
});

describe('afterListingsRun(ctx, run)', () => {
  it('queues today\'s digest durably and delivers it signed, with the exact payload fields', async () => {
    const { ctx } = await setup(() => ok);
    const now = new Date(T0_MS);
    const res = await afterListingsRun(ctx, { rows: [row({ listing_id: 'A9', percentiles: { flip: 1, brrrr: 88, hold: 2, house_hack: 3 } })], now, asOf: now, modelVersions: MODEL });
    expect(res.delivery.delivered).toEqual(res.digest.alert_ids);
    const r = rx!.received[0];
    expect(verifyAlertSignature(r.body, r.headers, SECRET, Number(r.headers['x-svc-timestamp']))).toEqual({ ok: true });
    const body = AlertPayloadSchema.parse(JSON.parse(r.body));
    expect(Object.keys(body).sort()).toEqual(['as_of', 'matches', 'model_versions', 'profile', 'strategy']);
    expect(Object.keys(body.matches[0]).sort()).toEqual(['address', 'listing_id', 'price', 'score_snapshot', 'url', 'zip']);
    expect(body.matches[0]).toMatchObject({ listing_id: 'A9', price: 200_000, score_snapshot: { brrrr: 88, flip: 1, hold: 2 } });
  });
});

describe('replayDeadLetter(dataDir, id)', () => {
  it('delivers a dead letter once the receiver recovers, and refuses to replay a delivered alert', async () => {
    let healthy = false;
    const { ctx, id } = await setup(() => (healthy ? ok : fail500));
    expect(await deliverAlert(ctx, id)).toBe('dead_lettered');
    healthy = true;
    const config = loadConfig({ AVM_ALLOW_PRIVATE_WEBHOOKS: 'true' });
    expect(await replayDeadLetter(t.dir, id, { config, sleep: ctx.sleep })).toEqual({ id, state: 'delivered', diagnostic: null });
    expect(rx!.received).toHaveLength(4);
    t.store.env.resetReadTxn();
    expect(getAlert(t.store, id)).toMatchObject({ state: 'delivered', replays: 1, rounds: 2, dead_letter: null });
    await expect(replayDeadLetter(t.dir, id, { config })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(replayDeadLetter(t.dir, 'al_nope', { config })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('retry timing and the 5 s timeout (fake timers)', () => {
  it('production uses a 5 s timeout, 3 attempts and 200/400 ms backoff', () => {
    expect(ALERTS.v.webhook_timeout_ms).toBe(5_000);
    expect(ALERTS.v.max_attempts).toBe(3);
    expect(ALERTS.v.backoff_ms).toEqual([200, 400, 800]);
  });

  it('waits 200 ms before attempt 2 and 400 ms before attempt 3, then dead-letters without waiting', async () => {
    const { ctx, id } = await setup(() => fail500, { sleep: undefined });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const done = deliverAlert(ctx, id);
    await until(() => expect(rx!.received).toHaveLength(1));
    await until(() => expect(getAlert(t.store, id)!.attempts).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(199);
    expect(rx!.received).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => expect(rx!.received).toHaveLength(2));
    await until(() => expect(getAlert(t.store, id)!.attempts).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(399);
    expect(rx!.received).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => expect(rx!.received).toHaveLength(3));
    // No 800 ms wait after the last attempt: the round settles without the fake clock moving again.
    let settled = false;
    void done.then(() => (settled = true));
    await until(() => expect(settled).toBe(true));
    expect(await done).toBe('dead_lettered');
  });

  it('abandons a hanging receiver at exactly 5 s per attempt with the production timeout', async () => {
    const { ctx, id } = await setup(() => ({ kind: 'hang' }), { sleep: undefined });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const done = deliverAlert(ctx, id);
    for (const [n, backoff] of [[1, 200], [2, 400], [3, 0]] as const) {
      await until(() => expect(rx!.received).toHaveLength(n));
      await vi.advanceTimersByTimeAsync(4_999);
      expect(getAlert(t.store, id)!.attempts).toHaveLength(n - 1);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => expect(getAlert(t.store, id)!.attempts).toHaveLength(n));
      if (backoff) await vi.advanceTimersByTimeAsync(backoff);
    }
    expect(await done).toBe('dead_lettered');
    expect(getAlert(t.store, id)!.dead_letter).toBe('timeout: no response within 5000 ms');
  });
});
