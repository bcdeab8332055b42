// The rate limiter shared by every replica (issue 18): rate-limiter-flexible's RateLimiterPostgres over the backend's
// pool, one bucket per caller in the `rate_limits` table (db/migrations/0200), so a caller gets the same limits however
// the load balancer spreads its calls. Same limits, headers and 429 body as the in-memory limiter (limiter.ts); the
// windows differ: the library counts a fixed window opened by the caller's first call (anonymous: 30 per 60 s per
// client IP; a key: its rpm per 60 s), where the in-memory limiter keeps a sliding log (anonymous) and a token bucket
// (keys). While PostgreSQL does not answer, each replica decides alone with an in-memory limiter of the same limits
// (the library's insurance limiter) rather than refusing every call.
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import type { PgPool } from '../store/pg/pool.js';
import type { LimitDecision, LimitSubject, RateLimiter } from './limiter.js';

export type PgLimiterOptions = { anonLimit?: number; anonWindowMs?: number };

const TABLE = 'rate_limits';
const KEYED_WINDOW_SEC = 60;

function postgresLimiter(pool: PgPool, keyPrefix: string, points: number, durationSec: number): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: TABLE,
    tableCreated: true, // the migration made it: no DDL at request time
    keyPrefix,
    points,
    duration: durationSec,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: durationSec }),
  });
}

function decisionOf(res: RateLimiterRes, allowed: boolean, limit: number, windowSec: number): LimitDecision {
  const resetSec = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
  return { allowed, limit, remaining: Math.max(0, res.remainingPoints), resetSec, retryAfterSec: allowed ? 0 : Math.max(1, resetSec), windowSec };
}

async function consume(limiter: RateLimiterPostgres, key: string, limit: number, windowSec: number): Promise<LimitDecision> {
  try {
    return decisionOf(await limiter.consume(key), true, limit, windowSec);
  } catch (e) {
    if (e instanceof RateLimiterRes) return decisionOf(e, false, limit, windowSec);
    throw e; // neither store answered: a real failure, the error middleware reports it
  }
}

/** One limiter per replica, all sharing the buckets in PostgreSQL. */
export function pgLimiter(pool: PgPool, opts: PgLimiterOptions = {}): RateLimiter {
  const anonLimit = opts.anonLimit ?? AUTH_LIMITS.v.anon_calls_per_window;
  const anonWindowSec = (opts.anonWindowMs ?? AUTH_LIMITS.v.anon_window_ms) / 1000;
  const anon = postgresLimiter(pool, 'ip', anonLimit, anonWindowSec);
  // A key's rpm is per key: one library limiter per distinct rpm, all writing the key's one row (prefix `key`).
  const byRpm = new Map<number, RateLimiterPostgres>();
  const keyed = (rpm: number): RateLimiterPostgres => {
    let l = byRpm.get(rpm);
    if (!l) byRpm.set(rpm, (l = postgresLimiter(pool, 'key', rpm, KEYED_WINDOW_SEC)));
    return l;
  };
  return {
    check(s: LimitSubject) {
      return s.kind === 'ip' ? consume(anon, s.subject, anonLimit, anonWindowSec) : consume(keyed(s.rpm), s.keyId, s.rpm, KEYED_WINDOW_SEC);
    },
  };
}
