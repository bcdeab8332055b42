// The authorization server in the Koa app. Built on first use (the issuer is the public origin, which needs the
// listening port), then: /oauth/consent/<uid> is ours (consent-route.ts); the provider's own paths (paths.ts) are
// answered by oidc-provider on the raw request, after the shared door middleware (canonical path, method, caller,
// audit, rate limit) ran. Access tokens are checked here for the auth middleware (AccessTokenCheck).
import type { Context, Middleware, Next } from 'koa';
import type { ServiceContext } from '../../app/context.js';
import type { KeyStore } from '../../auth/keys.js';
import { oauthTokenOf, verifyAccessToken } from '../../auth/oauth/access-token.js';
import { backendOf } from '../../app/door-services.js';
import { OAUTH } from '../../registry/groups/oauth.js';
import { createAuthorizationServer, type AuthorizationServer } from '../../auth/oauth/provider.js';
import { resourceId, resourceKindOf } from '../../auth/oauth/resource.js';
import { AppError } from '../../errors/app-error.js';
import type { AccessTokenCheck } from '../middleware/auth.js';
import { serviceOrigin } from './challenge.js';
import { consentGet, consentPost } from './consent-route.js';
import { CONSENT_PATH, OAUTH_ROUTES, oauthOperationOf } from './paths.js';
import { schedulePeriodicSweep } from '../../store/sweep.js';

export type AuthorizationServerDoor = { accessTokens: AccessTokenCheck; middleware: Middleware };

export function authorizationServerDoor(svc: ServiceContext, keys: KeyStore): AuthorizationServerDoor {
  let pending: Promise<{ server: AuthorizationServer; handle: ReturnType<AuthorizationServer['provider']['callback']> }> | null = null;
  const get = () => {
    pending ??= createAuthorizationServer({
      origin: serviceOrigin(svc),
      store: backendOf(svc).oauth,
      keys,
      consentUrl: (uid) => `${CONSENT_PATH}/${uid}`,
      routes: OAUTH_ROUTES,
      trustProxy: svc.config.trustProxy,
      cimd: { privateHosts: svc.config.cimdPrivateHosts ?? [], privateCa: svc.config.cimdCa ?? null },
      logError: (msg, extra) => svc.log.error(msg, extra),
    }).then(
      (server) => {
        startSweeps();
        return { server, handle: server.provider.callback() };
      },
      (e: unknown) => {
        pending = null; // a failure (storage) is retried by the next request instead of kept forever
        throw e;
      },
    );
    return pending;
  };
  const startSweeps = (): void => {
    const sweeper = schedulePeriodicSweep(() => backendOf(svc).oauth.sweepExpired(), OAUTH.v.sweep_interval_hours, (e) => svc.log.error('oauth expired-record sweep failed', e));
    svc.closeHooks?.push(sweeper.stop); // at shutdown, before the store closes: no new sweep, and the one running finishes
  };
  const accessTokens: AccessTokenCheck = async (header, path) => {
    const token = oauthTokenOf(header);
    if (!token) return null;
    const { server } = await get();
    return verifyAccessToken(server.provider, keys, token, resourceId(serviceOrigin(svc), resourceKindOf(path)));
  };
  const middleware: Middleware = async (ctx: Context, next: Next) => {
    const operation = oauthOperationOf(ctx.path);
    if (!operation) return next();
    ctx.state.operationId = operation;
    if (operation === 'oauth_consent') {
      const uid = ctx.path.slice(CONSENT_PATH.length + 1);
      const deps = { server: (await get()).server, keys, origin: serviceOrigin(svc) };
      if (ctx.method === 'GET' || ctx.method === 'HEAD') return consentGet(ctx, deps, uid);
      if (ctx.method === 'POST') return consentPost(ctx, deps, uid);
      ctx.set('Allow', 'GET, HEAD, POST');
      throw new AppError('method_not_allowed', `method ${ctx.method} is not allowed here`);
    }
    const { handle } = await get();
    ctx.respond = false;
    await handle(ctx.req, ctx.res);
  };
  return { accessTokens, middleware };
}
