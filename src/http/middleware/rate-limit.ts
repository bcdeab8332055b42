// Koa wrapper over the rate-limit core: anonymous (and rejected-key) callers per client IP, keyed callers per key.
// Headers: the separate-field form of draft-ietf-httpapi-ratelimit-headers-06 (RateLimit-Limit/-Remaining/-Reset
// plus RateLimit-Policy "<limit>;w=<window s>", as express-rate-limit's `draft-6`), and Retry-After on 429.
import type { Context, Middleware, Next } from 'koa';
import type { Caller } from '../../auth/authorize.js';
import { createLimiter, type LimitDecision, type Limiter, type LimitSubject, type RateLimiter } from '../../auth/limiter.js';
import { AppError } from '../../errors/app-error.js';
import { callerOf } from './auth.js';
import { rateSubjectForIp } from './client-ip.js';

export { createLimiter, type Limiter, type LimitDecision, type RateLimiter };

/** Which bucket a caller draws from. A rejected key is counted by IP, so guessing keys costs anonymous quota. */
export function limitSubjectOf(caller: Caller): LimitSubject {
  if (caller.kind === 'key') return { kind: 'key', keyId: caller.key.id, rpm: caller.key.rpm_limit };
  return { kind: 'ip', subject: rateSubjectForIp(caller.ip) };
}

export function rateLimitHeaders(d: LimitDecision): Record<string, string> {
  const h: Record<string, string> = {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSec),
    'RateLimit-Policy': `${d.limit};w=${d.windowSec}`,
  };
  if (!d.allowed) h['Retry-After'] = String(d.retryAfterSec);
  return h;
}

/** The 429 for a refused decision (carries Retry-After through AppError.retryAfterSec). */
export function rateLimitedError(d: LimitDecision): AppError {
  return new AppError('rate_limited', `rate limit exceeded (${d.limit} per ${d.windowSec} s); retry after ${d.retryAfterSec} s`, {
    retryAfterSec: d.retryAfterSec,
    details: { limit: d.limit, window_sec: d.windowSec, retry_after_sec: d.retryAfterSec },
  });
}

/** Mount after `authMiddleware`. Sets the RateLimit headers on every response; throws 429 `rate_limited` when empty. */
export function rateLimitMiddleware(opts: { limiter: RateLimiter }): Middleware {
  return async (ctx: Context, next: Next) => {
    const decision = await opts.limiter.check(limitSubjectOf(callerOf(ctx)));
    ctx.set(rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision);
    await next();
  };
}
