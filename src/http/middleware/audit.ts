// Meters every call (per day, per key or anonymous, per operation) and audits keyed calls, after the response is decided.
import type { Context, Middleware, Next } from 'koa';
import type { Audit } from '../../auth/audit.js';
import { callerOf } from './auth.js';
import { operationNameOf } from './operation-name.js';

/**
 * Each call is recorded under `operationNameOf(ctx)` (bounded: never the raw path).
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
      const op = operationNameOf(ctx);
      const requestId = typeof ctx.state.requestId === 'string' ? ctx.state.requestId : '';
      opts.audit.record({ caller: callerOf(ctx), op, status, requestId });
    }
  };
}
