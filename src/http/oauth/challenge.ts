// The Bearer challenge on a refused request (REST and /mcp alike): where the resource metadata is, and why the token,
// if any, was refused, so an OAuth client can start (or step up) a sign-in. The error body stays the taxonomy's.
import type { Context } from 'koa';
import type { ServiceContext } from '../../app/context.js';
import type { Caller } from '../../auth/authorize.js';
import { bearerChallenge, publicOrigin } from '../../auth/oauth/resource.js';
import type { AppError } from '../../errors/app-error.js';

/** The service's public origin as the doors know it (the real port once listening). */
export function serviceOrigin(svc: Pick<ServiceContext, 'config' | 'listenPort'>): string {
  return publicOrigin({ publicUrl: svc.config.publicUrl, host: svc.config.host, port: svc.listenPort ?? svc.config.port });
}

/** Sets WWW-Authenticate for a 401 `unauthorized` or 403 `forbidden_scope` refusal; other errors are left alone. */
export function setBearerChallenge(ctx: Context, origin: string, refusal: AppError, caller: Caller): void {
  if (refusal.code === 'unauthorized') {
    ctx.set('WWW-Authenticate', bearerChallenge({ origin, path: ctx.path, refusal: caller.kind === 'rejected' ? 'invalid_token' : 'no_token' }));
  } else if (refusal.code === 'forbidden_scope') {
    const scope = (refusal.details as { required_scope?: string } | undefined)?.required_scope;
    ctx.set('WWW-Authenticate', bearerChallenge({ origin, path: ctx.path, refusal: 'insufficient_scope', scope }));
  }
}
