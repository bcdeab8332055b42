// One contract, two limiters: the in-memory limiter (LMDB default, one replica) and the PostgreSQL limiter
// (rate-limiter-flexible's RateLimiterPostgres) shared by three replicas (three pools on one database). Same limits, same
// decision fields (so the same RateLimit headers and 429 body); on PostgreSQL the 31st anonymous call in a minute is
// refused whichever replica takes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter, type RateLimiter } from '../../src/auth/limiter.js';
import { pgLimiter } from '../../src/auth/limiter-pg.js';
import { rateLimitedError, rateLimitHeaders } from '../../src/http/middleware/rate-limit.js';
import { AUTH_LIMITS } from '../../src/registry/groups/auth.js';
import { BACKENDS, extraPool, startPgHarness, type PgHarness } from '../support/pg-backends.js';

let pg: PgHarness;
beforeAll(async () => {
  pg = await startPgHarness();
}, 60_000);
afterAll(() => pg?.stop());

/** Three replicas' limiters: one shared in-memory instance stands for the single-replica default. */
async function replicas(backend: 'lmdb' | 'postgresql'): Promise<RateLimiter[]> {
  if (backend === 'lmdb') {
    const one = createLimiter();
    return [one, one, one];
  }
  const db = await pg.database(2);
  return [pgLimiter(db.pool), pgLimiter(extraPool(db, db.url, 2)), pgLimiter(extraPool(db, db.url, 2))];
}

describe.each(BACKENDS)('rate limiter contract (%s)', (backend) => {
  it('the 31st anonymous call in a minute from one IP is refused, spread over the replicas', async () => {
    const ls = await replicas(backend);
    const limit = AUTH_LIMITS.v.anon_calls_per_window;
    const ip = { kind: 'ip' as const, subject: '203.0.113.7' };
    for (let i = 0; i < limit; i++) {
      const d = await ls[i % 3].check(ip);
      expect(d).toMatchObject({ allowed: true, limit, remaining: limit - 1 - i, retryAfterSec: 0, windowSec: 60 });
    }
    const refused = await ls[limit % 3].check(ip);
    expect(refused).toMatchObject({ allowed: false, limit, remaining: 0, windowSec: 60 });
    expect(refused.retryAfterSec).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSec).toBeLessThanOrEqual(60);
    expect(rateLimitHeaders(refused)).toEqual({
      'RateLimit-Limit': String(limit), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(refused.resetSec),
      'RateLimit-Policy': `${limit};w=60`, 'Retry-After': String(refused.retryAfterSec),
    });
    expect(rateLimitedError(refused)).toMatchObject({ code: 'rate_limited', details: { limit, window_sec: 60, retry_after_sec: refused.retryAfterSec } });
    // Another IP has its own bucket.
    expect((await ls[1].check({ kind: 'ip', subject: '203.0.113.8' })).allowed).toBe(true);
  });

  it("a key draws on its own rpm, one bucket whichever replica serves it", async () => {
    const ls = await replicas(backend);
    const key = { kind: 'key' as const, keyId: 'key_contract', rpm: 5 };
    const passed = [];
    for (let i = 0; i < 8; i++) passed.push((await ls[i % 3].check(key)).allowed);
    expect(passed).toEqual([true, true, true, true, true, false, false, false]);
    const d = await ls[2].check(key);
    expect(d).toMatchObject({ allowed: false, limit: 5, remaining: 0, windowSec: 60 });
    expect((await ls[0].check({ kind: 'key', keyId: 'key_other', rpm: 5 })).allowed).toBe(true);
  });
});
