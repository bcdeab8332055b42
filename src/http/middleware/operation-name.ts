// The name a request is counted under in metering, the access log and metrics: the operation id a route set, else the
// operation its method and (canonical) path name, even when a guard refused it before the route (401, 429), else the
// matched route pattern, else `unmatched` (never the raw path: callers must not create unbounded names).
import type { Context } from 'koa';
import { operationForRequest } from '../../contracts/operations.js';

export function matchedRouteOf(ctx: Context): string | null {
  const route = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  return route ? String(route) : null;
}

export function operationNameOf(ctx: Context): string {
  if (typeof ctx.state.operationId === 'string') return ctx.state.operationId;
  const op = operationForRequest(ctx.method, ctx.path);
  if (op) return op.id;
  const route = matchedRouteOf(ctx);
  return route ? `${ctx.method} ${route}` : 'unmatched';
}
