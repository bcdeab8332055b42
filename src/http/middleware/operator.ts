// Guards operator-only routes (GET /api/admin/analytics) with `Authorization: Bearer <WRITE_SECRET>`.
import type { Context, Middleware, Next } from 'koa';
import { isOperatorAuthorization } from '../../auth/operator.js';
import { AppError } from '../../errors/app-error.js';

/** 401 `unauthorized` unless the operator secret is presented; always 401 while WRITE_SECRET is unset. */
export function requireOperator(writeSecret: string | null): Middleware {
  return async (ctx: Context, next: Next) => {
    if (!isOperatorAuthorization(ctx.req.headers.authorization, writeSecret)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="avm-operator"');
      throw new AppError('unauthorized', writeSecret ? 'operator secret required' : 'operator endpoints are disabled (WRITE_SECRET unset)');
    }
    await next();
  };
}
