// Meters every call (per day, per key or anonymous, per operation) and audits keyed calls, after the response is decided.
import type { Context, Middleware, Next } from 'koa';
import type { Audit } from '../../auth/audit.js';
import { callerOf } from './auth.js';

/**
 * The operation name is `ctx.state.operationId` when the route sets it, else the matched route pattern, else
 * `unmatched` (never the raw path: that would let callers create unbounded metering rows).
 * Mount inside the error middleware and after `authMiddleware`; thrown errors are recorded with their status.
 */
export function auditMiddleware(opts: { audit: Audit }): Middleware {
  return async (ctx: Context, next: Next) => {
    let status = 500;
    try {
      await next();
      // A door that answered on the raw response (the tool server: ctx.respond = false) set the real status there.
      status = ctx.respond === false && ctx.res.headersSent ? ctx.res.statusCode : ctx.status;
    } catch (err) {
      const s = (err as { status?: unknown })?.status;
      status = typeof s === 'number' ? s : 500;
      throw err;
    } finally {
      const route = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
      const op = typeof ctx.state.operationId === 'string' ? ctx.state.operationId : route ? `${ctx.method} ${String(route)}` : 'unmatched';
      const requestId = typeof ctx.state.requestId === 'string' ? ctx.state.requestId : '';
      opts.audit.record({ caller: callerOf(ctx), op, status, requestId });
    }
  };
}
