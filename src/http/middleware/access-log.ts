// One access-log line and one latency observation per request, when its response ends (or its connection closes
// first). Logs the request id, method, matched route, operation, status, duration and the caller's key id if any:
// never the key itself, the query or the body. Mount first, so it sees the status the error middleware chose.
import type { Context, Middleware, Next } from 'koa';
import type { Door, ServiceMetrics } from '../../app/metrics.js';
import type { Logger } from '../../log.js';
import { DOORS } from '../../registry/groups/doors.js';
import type { Caller } from '../../auth/authorize.js';
import { canonicalPath } from './canonical-path.js';
import { matchedRouteOf, operationNameOf } from './operation-name.js';
import { assignRequestId } from './request-id.js';

/** The route pattern that served it, else the canonical spelling of the path (capped), never the raw one. */
function normalizedPathOf(ctx: Context): string {
  return matchedRouteOf(ctx) ?? canonicalPath(ctx.path)?.slice(0, DOORS.v.text_max_chars) ?? '(malformed)';
}

const doorOf = (ctx: Context): Door => (ctx.path === '/mcp' ? 'mcp' : 'rest');

export function accessLogMiddleware(opts: { log: Logger; metrics: ServiceMetrics }): Middleware {
  return async (ctx: Context, next: Next) => {
    const requestId = assignRequestId(ctx);
    const t0 = performance.now();
    ctx.res.once('close', () => {
      const durationMs = performance.now() - t0;
      // Closed before any header went out: the client gave up (the 499 of nginx, as the audit records it).
      const status = ctx.res.headersSent ? ctx.res.statusCode : 499;
      const operation = operationNameOf(ctx);
      const caller = ctx.state.caller as Caller | undefined;
      const errorCode = typeof ctx.state.errorCode === 'string' ? ctx.state.errorCode : undefined;
      opts.metrics.observeRequest(operation, status, durationMs / 1000);
      if (errorCode === 'rate_limited') opts.metrics.countRateLimitRefusal(doorOf(ctx));
      opts.log.info('request', {
        request_id: requestId, method: ctx.method, path: normalizedPathOf(ctx), operation, status, duration_ms: Math.round(durationMs * 10) / 10,
        key_id: caller?.kind === 'key' ? caller.key.id : undefined, error_code: errorCode,
      });
    });
    await next();
  };
}
