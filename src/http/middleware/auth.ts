// Koa side of keys and scopes: resolve the caller onto ctx.state.caller, and per-operation scope checks.
// The decision itself is the pure `authorize` of src/auth/authorize.ts, reused by the MCP door.
import type { Context, Middleware, Next } from 'koa';
import { authorize, type Caller } from '../../auth/authorize.js';
import type { KeyStore, VerifyResult } from '../../auth/keys.js';
import type { RequiredScope } from '../../auth/scopes.js';
import { clientIp } from './client-ip.js';

export { authorize, type Caller };

/** Resolves the caller without refusing anyone: refusal is per operation (`requireScope`). Never throws. */
export async function resolveCaller(keys: Pick<KeyStore, 'verifyBearer'>, header: unknown, ip: string): Promise<Caller> {
  const present = Array.isArray(header) ? header.length > 0 : typeof header === 'string' && header.trim() !== '';
  if (!present) return { kind: 'anonymous', ip };
  const verdict = await keys.verifyBearer(header);
  return verdict.ok ? { kind: 'key', key: verdict.key, ip } : { kind: 'rejected', reason: verdict.reason, ip };
}

/**
 * Checks a Bearer value that is not an API key as an OAuth access token for the request path (src/auth/oauth);
 * null when the value is not such a token, so the key check decides.
 */
export type AccessTokenCheck = (header: unknown, path: string) => Promise<VerifyResult | null>;

/** Sets `ctx.state.caller: Caller`. Mount before the rate limiter and the routes. */
export function authMiddleware(opts: { keys: Pick<KeyStore, 'verifyBearer'>; trustProxy: boolean; accessTokens?: AccessTokenCheck }): Middleware {
  return async (ctx: Context, next: Next) => {
    const ip = clientIp(ctx.req, opts.trustProxy);
    const viaToken = opts.accessTokens ? await opts.accessTokens(ctx.req.headers.authorization, ctx.path) : null;
    ctx.state.caller = viaToken ? callerOfVerdict(viaToken, ip, true) : await resolveCaller(opts.keys, ctx.req.headers.authorization, ip);
    await next();
  };
}

function callerOfVerdict(verdict: VerifyResult, ip: string, viaToken: boolean): Caller {
  return verdict.ok ? { kind: 'key', key: verdict.key, ip, viaToken } : { kind: 'rejected', reason: verdict.reason, ip };
}

/** The caller set by `authMiddleware`; anonymous (socket address) if that middleware was not mounted. */
export function callerOf(ctx: Context): Caller {
  const c = ctx.state.caller as Caller | undefined;
  return c ?? { kind: 'anonymous', ip: clientIp(ctx.req, false) };
}

/** Per-operation guard: throws AppError 401 `unauthorized` / 403 `forbidden_scope`, else continues. */
export function requireScope(scope: RequiredScope): Middleware {
  return async (ctx: Context, next: Next) => {
    const refusal = authorize(callerOf(ctx), scope);
    if (refusal) {
      if (refusal.code === 'unauthorized') ctx.set('WWW-Authenticate', 'Bearer realm="avm"');
      throw refusal;
    }
    await next();
  };
}
