// Rate limits: anonymous 30/min per client IP (sliding window), token bucket per key, forged X-Forwarded-For.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLimiter } from '../../../src/auth/limiter.js';
import { openKeyStore, type KeyStore } from '../../../src/auth/keys.js';
import { authMiddleware } from '../../../src/http/middleware/auth.js';
import { rateSubjectForIp } from '../../../src/http/middleware/client-ip.js';
import { rateLimitMiddleware } from '../../../src/http/middleware/rate-limit.js';
import { rawRequest, serve, tempEnv, type TempEnv, type TestServer } from './support.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

let t: TempEnv;
let keys: KeyStore;
let server: TestServer | null = null;

async function start(trustProxy: boolean): Promise<TestServer> {
  server = await serve((app) => {
    app.use(authMiddleware({ keys, trustProxy }));
    app.use(rateLimitMiddleware({ limiter: createLimiter() })); // default clock Date.now: faked below
    app.use((ctx) => void (ctx.body = { ok: true }));
  });
  return server;
}

beforeEach(() => {
  // Only Date is faked: sockets keep real timers, the limiter reads the fake clock.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  t = tempEnv();
  keys = openKeyStore(t.env);
});
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = null;
  await t.dispose();
});

describe('rateLimitMiddleware (anonymous)', () => {
  it('answers the 31st call in a minute with 429, Retry-After and RateLimit headers; the window then slides', async () => {
    const s = await start(false);
    for (let i = 1; i <= 30; i++) {
      const res = await rawRequest(s.port, { path: '/x' });
      expect(res.status, `call ${i}`).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(30 - i));
    }
    const denied = await rawRequest(s.port, { path: '/x' });
    expect(denied.status).toBe(429);
    expect(JSON.parse(denied.body).error.code).toBe('rate_limited');
    // All 30 calls were at T0 (clock frozen), so the oldest leaves the 60 s window exactly 60 s later.
    expect(denied.headers['retry-after']).toBe('60');
    expect(denied.headers['ratelimit-limit']).toBe('30');
    expect(denied.headers['ratelimit-remaining']).toBe('0');
    expect(denied.headers['ratelimit-policy']).toBe('30;w=60');

    vi.setSystemTime(T0 + 59_999);
    expect((await rawRequest(s.port, { path: '/x' })).status).toBe(429);
    vi.setSystemTime(T0 + 60_000);
    expect((await rawRequest(s.port, { path: '/x' })).status).toBe(200);
  });

  it('ignores a forged X-Forwarded-For unless trustProxy is set', async () => {
    const s = await start(false);
    for (let i = 1; i <= 30; i++) await rawRequest(s.port, { path: '/x', headers: [['X-Forwarded-For', `203.0.113.${i}`]] });
    const res = await rawRequest(s.port, { path: '/x', headers: [['X-Forwarded-For', '203.0.113.99']] });
    expect(res.status).toBe(429);
  });

  it('with trustProxy uses the rightmost X-Forwarded-For entry, so client-prepended entries do not help', async () => {
    const s = await start(true);
    for (let i = 1; i <= 30; i++) {
      expect((await rawRequest(s.port, { path: '/x', headers: [['X-Forwarded-For', `198.51.100.${i}, 192.0.2.7`]] })).status).toBe(200);
    }
    expect((await rawRequest(s.port, { path: '/x', headers: [['X-Forwarded-For', '198.51.100.200, 192.0.2.7']] })).status).toBe(429);
    // A different proxy-appended address is a different client.
    expect((await rawRequest(s.port, { path: '/x', headers: [['X-Forwarded-For', '192.0.2.8']] })).status).toBe(200);
  });

  it('counts a rejected key against its IP, not as a keyed caller', async () => {
    const s = await start(false);
    const bad: [string, string] = ['Authorization', 'Bearer avm_000000000000_' + 'A'.repeat(43)];
    for (let i = 1; i <= 30; i++) await rawRequest(s.port, { path: '/x', headers: [bad] });
    expect((await rawRequest(s.port, { path: '/x' })).status).toBe(429);
  });
});

describe('rateLimitMiddleware (keyed)', () => {
  it('applies the key token bucket instead of the anonymous limit', async () => {
    const { plaintext } = await keys.createKey({ scopes: 'read', rpmLimit: 40 });
    const s = await start(false);
    const auth: [string, string] = ['Authorization', `Bearer ${plaintext}`];
    for (let i = 1; i <= 40; i++) expect((await rawRequest(s.port, { path: '/x', headers: [auth] })).status, `call ${i}`).toBe(200);
    const denied = await rawRequest(s.port, { path: '/x', headers: [auth] });
    expect(denied.status).toBe(429);
    // Refill is 40/60 token per second; one token takes 60/40 = 1.5 s, rounded up to 2 s.
    expect(denied.headers['retry-after']).toBe('2');
    expect(denied.headers['ratelimit-limit']).toBe('40');
    // The anonymous budget of this IP is untouched.
    expect((await rawRequest(s.port, { path: '/x' })).status).toBe(200);
  });
});

describe('createLimiter({ now })', () => {
  it('refills a key bucket at rpm/60 tokens per second up to a burst of rpm', () => {
    let nowMs = 0;
    const limiter = createLimiter({ now: () => nowMs });
    const key = { kind: 'key' as const, keyId: 'k1', rpm: 60 };
    for (let i = 0; i < 60; i++) expect(limiter.check(key).allowed).toBe(true);
    const empty = limiter.check(key);
    expect(empty).toMatchObject({ allowed: false, remaining: 0, retryAfterSec: 1 });
    nowMs = 1_000; // 60 rpm = 1 token per second
    expect(limiter.check(key).allowed).toBe(true);
    expect(limiter.check(key).allowed).toBe(false);
    nowMs = 31_000; // 30 s more → 30 tokens
    let passed = 0;
    while (limiter.check(key).allowed) passed++;
    expect(passed).toBe(30);
    nowMs = 10_000_000; // long idle: capped at the burst of 60, not 9,969
    passed = 0;
    while (limiter.check(key).allowed) passed++;
    expect(passed).toBe(60);
  });

  it('keeps memory bounded by evicting idle then least-recently-used IPs', () => {
    let nowMs = 0;
    const limiter = createLimiter({ now: () => nowMs, maxEntries: 100 });
    for (let i = 0; i < 1_000; i++) limiter.check({ kind: 'ip', subject: `10.0.${i >> 8}.${i & 255}` });
    expect(limiter.size()).toBeLessThanOrEqual(100);
    expect(limiter.size()).toBeGreaterThanOrEqual(90);
    nowMs = 120_000;
    limiter.check({ kind: 'ip', subject: '10.9.9.9' });
    expect(limiter.size()).toBeLessThanOrEqual(100);
  });
});

describe('rateSubjectForIp', () => {
  it('counts IPv4 per address and IPv6 per /64', () => {
    expect(rateSubjectForIp('203.0.113.5')).toBe('203.0.113.5');
    expect(rateSubjectForIp('2001:db8:1:2::1')).toBe('2001:0db8:0001:0002::/64');
    expect(rateSubjectForIp('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:0db8:0001:0002::/64');
    expect(rateSubjectForIp('::1')).toBe('0000:0000:0000:0000::/64');
  });
});
