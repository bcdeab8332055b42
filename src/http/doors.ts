// Mounts the shared door middleware (one path spelling, Host/Origin guard, caller, audit, rate limit, per-operation
// scope and input validation) and the REST routes generated from OPERATIONS. Order: errors → canonical path → method
// → host guard (/mcp, /api/events) → auth → audit → rate limit (REST; MCP counts tools/call itself) → DNT/GPC opt-out of analytics → operation guard
// → routes. Every step after the first sees the one canonical path the router matches exactly (app.ts).
import type { Router } from '@koa/router';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { authorize } from '../auth/authorize.js';
import { isOperatorAuthorization } from '../auth/operator.js';
import { OPERATIONS, operationForRequest, type Operation } from '../contracts/operations.js';
import { JsonText, Reply } from '../contracts/reply.js';
import { AppError } from '../errors/app-error.js';
import { eventsStreamHandler } from './events-stream.js';
import { readJsonBody } from './body.js';
import { queryInput } from './query.js';
import type { ServiceContext } from '../app/context.js';
import type { DoorServices } from '../app/door-services.js';
import type { OperationFn } from '../app/operations.js';
import { validationError } from './errors.js';
import { METRICS_PATH } from './metrics-route.js';
import { auditMiddleware } from './middleware/audit.js';
import { authMiddleware, callerOf, type AccessTokenCheck } from './middleware/auth.js';
import { canonicalPathGuard } from './middleware/canonical-path.js';
import { serviceOrigin, setBearerChallenge } from './oauth/challenge.js';
import { OAUTH_ALLOWED_METHODS, OAUTH_OPAQUE_ID_PREFIXES } from './oauth/paths.js';
import { hostGuard } from './middleware/host-guard.js';
import { privacySignalGuard } from './middleware/privacy-signals.js';
import { rateLimitMiddleware } from './middleware/rate-limit.js';
import { isAssetPath } from './web-assets.js';
import { KEYS_FORM_PATH } from '../app/keys-page.js';

const GUARDED_PREFIXES = ['/mcp', '/api/events'];
const isGuarded = (path: string): boolean => GUARDED_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

/** Methods allowed on each served path (GET implies HEAD); OPTIONS is answered by the router with Allow. */
const ALLOWED = new Map<string, string[]>([['/mcp', ['GET', 'POST', 'DELETE']], [METRICS_PATH, ['GET', 'HEAD']]]);
for (const [path, methods] of OAUTH_ALLOWED_METHODS) ALLOWED.set(path, methods);
ALLOWED.set(KEYS_FORM_PATH, ['POST']); // the keys page's forms (src/http/keys-page-route.ts); GET /keys is an operation
for (const o of OPERATIONS) if (o.rest) ALLOWED.set(o.rest.path, [...(ALLOWED.get(o.rest.path) ?? []), ...(o.rest.method === 'GET' ? ['GET', 'HEAD'] : [o.rest.method])]);

/** 405 with the Allow header RFC 9110 requires, for a served path's other methods and for unknown verbs (TRACE...). */
function methodGuard(ctx: Context, next: Next): Promise<void> {
  const allowed = ALLOWED.get(ctx.path);
  if (ctx.method === 'OPTIONS' || (allowed ? allowed.includes(ctx.method) : ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method))) return next();
  ctx.set('Allow', (allowed ?? ['GET', 'HEAD', 'POST']).join(', '));
  throw new AppError('method_not_allowed', `method ${ctx.method} is not allowed here`);
}

/** `accessTokens`: the OAuth access-token check of the authorization server door (src/http/oauth/door.ts). */
export function mountDoorMiddleware(app: Koa, svc: ServiceContext, doors: DoorServices, accessTokens?: AccessTokenCheck): void {
  app.use(canonicalPathGuard((path) => ALLOWED.has(path) || isAssetPath(path), OAUTH_OPAQUE_ID_PREFIXES));
  app.use(methodGuard);
  const guard = hostGuard({ port: () => svc.listenPort ?? svc.config.port, allowedHosts: svc.config.allowedHosts, allowedOrigins: svc.config.allowedOrigins });
  app.use((ctx, next) => (isGuarded(ctx.path) ? guard(ctx, next) : next()));
  app.use(authMiddleware({ keys: doors.keys, trustProxy: svc.config.trustProxy, accessTokens }));
  app.use(auditMiddleware({ audit: doors.audit }));
  const limit = rateLimitMiddleware({ limiter: doors.limiter });
  // MCP counts its tools/call messages itself. A request carrying the valid operator secret is not public traffic: it
  // would otherwise count as a rejected key in its IP's anonymous quota; wrong guesses at the secret still do. The map's
  // static assets (a page load fetches several) are files, not calls: they do not spend the anonymous quota.
  const exempt = (ctx: Context): boolean => ctx.path === '/mcp' || isAssetPath(ctx.path) || isOperatorAuthorization(ctx.req.headers.authorization, svc.config.writeSecret);
  app.use((ctx, next) => (exempt(ctx) ? next() : limit(ctx, next)));
  app.use(privacySignalGuard); // DNT / GPC: analytics answered before its body is read
  app.use((ctx, next) => operationGuard(ctx, next, svc));
}

/** 401/403 before 400: who may call is decided before what they sent is examined. */
function checkScope(ctx: Context, op: Operation, svc: ServiceContext): void {
  if (op.scope === 'operator') {
    if (isOperatorAuthorization(ctx.req.headers.authorization, svc.config.writeSecret)) return;
    ctx.set('WWW-Authenticate', 'Bearer realm="avm-operator"');
    throw new AppError('unauthorized', svc.config.writeSecret ? 'operator secret required' : 'operator endpoints are disabled (WRITE_SECRET unset)');
  }
  const refusal = authorize(callerOf(ctx), op.scope);
  if (refusal) {
    setBearerChallenge(ctx, serviceOrigin(svc), refusal, callerOf(ctx));
    throw refusal;
  }
}

async function operationGuard(ctx: Context, next: Next, svc: ServiceContext): Promise<void> {
  const op = operationForRequest(ctx.method, ctx.path);
  if (!op?.rest) return next();
  ctx.state.operationId = op.id;
  checkScope(ctx, op, svc);
  const raw = op.rest.from === 'body' ? await readJsonBody(ctx) : queryInput(op, ctx.query);
  const parsed = op.input.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, op.rest.from === 'body' ? 'body' : 'query');
  ctx.state.input = parsed.data;
  await next();
}

/** Sends an operation's answer: its object as JSON, pre-serialized JSON text as is, a Reply with its status and headers. */
function send(ctx: Context, answer: unknown, status: number): void {
  const reply = answer instanceof Reply ? answer : null;
  const body = reply ? reply.body : answer;
  ctx.status = reply ? reply.status : status;
  if (reply) ctx.set({ ...reply.headers });
  if (body instanceof JsonText) ctx.type = 'application/json';
  ctx.body = body instanceof JsonText ? body.text : body;
}

/**
 * Registers every operation that has a REST binding: the guard validated its input; its function answers. Event
 * streams end cleanly when `shutdown` aborts. A route
 * the operation guard did not pass (it keys on the same path, so never) answers 404 rather than run unchecked.
 */
export function registerOperationRoutes(router: Router, operations: ReadonlyMap<string, OperationFn>, doors: DoorServices, shutdown?: AbortSignal): void {
  router.get('/api/events', eventsStreamHandler({ log: doors.events, shutdown }));
  for (const op of OPERATIONS) {
    const fn = operations.get(op.id);
    if (!op.rest || !fn || op.rest.produces === 'sse') continue;
    const route = async (ctx: Context): Promise<void> => {
      if (ctx.state.operationId !== op.id) throw new AppError('not_found', `no route for ${ctx.method} ${ctx.path}`);
      const answer = await fn(ctx.state.input as never, { caller: callerOf(ctx), requestId: String(ctx.state.requestId ?? '') });
      send(ctx, answer, op.rest!.status);
    };
    if (op.rest.method === 'GET') router.get(op.rest.path, route);
    else router.post(op.rest.path, route);
  }
}
