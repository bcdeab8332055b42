// POST/GET/DELETE /mcp: the streamable HTTP door. Auth and the Host/Origin guard ran before (shared middleware);
// here a rejected key is refused, tools/call messages draw on the shared limiter (HTTP 429 + Retry-After), then
// Koa steps aside (`ctx.respond = false`) and the session's SDK transport answers on the raw request.
import type { Router } from '@koa/router';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'koa';
import { authorize } from '../auth/authorize.js';
import type { OperationDeps } from '../contracts/operation-deps.js';
import type { ServiceContext } from '../app/context.js';
import type { DoorServices } from '../app/deps.js';
import { readJsonBody } from '../http/body.js';
import { callerOf } from '../http/middleware/auth.js';
import { limitSubjectOf, rateLimitedError, rateLimitHeaders } from '../http/middleware/rate-limit.js';
import { createMcpServer, type McpRequestAuth } from './server.js';
import { createMcpSessions, type McpSessions } from './sessions.js';

function countToolCalls(body: unknown): number {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.filter((m) => (m as { method?: unknown })?.method === 'tools/call').length;
}

function jsonRpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}

export function registerMcpRoutes(router: Router, svc: ServiceContext, doors: DoorServices, deps: OperationDeps): McpSessions {
  const log = (msg: string, extra?: unknown): void => svc.log.error(msg, extra);
  const sessions = createMcpSessions(() => createMcpServer(deps, log), () => svc.now().getTime());
  const handle = async (ctx: Context): Promise<void> => {
    ctx.state.operationId = 'mcp';
    const caller = callerOf(ctx);
    const refused = authorize(caller, 'read'); // only a rejected (malformed, unknown, revoked) key is refused here
    if (refused) {
      ctx.set('WWW-Authenticate', 'Bearer realm="avm"');
      throw refused;
    }
    const body = ctx.method === 'POST' ? await readJsonBody(ctx) : undefined;
    for (let n = countToolCalls(body); n > 0; n--) {
      const d = doors.limiter.check(limitSubjectOf(caller));
      ctx.set(rateLimitHeaders(d));
      if (!d.allowed) throw rateLimitedError(d);
    }
    const sessionId = ctx.get('mcp-session-id');
    const session = sessionId ? sessions.get(sessionId) : undefined;
    if (sessionId && !session) return jsonRpcError(ctx, 404, -32001, 'Session not found');
    if (!session && !(ctx.method === 'POST' && isInitializeRequest(body))) return jsonRpcError(ctx, 400, -32000, 'Bad Request: no valid session id; send initialize first');
    const auth: McpRequestAuth = { caller, requestId: String(ctx.state.requestId ?? '') };
    Object.assign(ctx.req, { auth: { token: '', clientId: caller.kind === 'key' ? caller.key.id : 'anonymous', scopes: caller.kind === 'key' ? caller.key.scopes : [], extra: auth } });
    for (const [k, v] of Object.entries(ctx.response.headers)) if (!ctx.res.headersSent) ctx.res.setHeader(k, v as string);
    ctx.status = 200; // for the audit record; the transport writes the real response
    ctx.respond = false;
    if (session) await session.transport.handleRequest(ctx.req, ctx.res, body);
    else await sessions.open(ctx.req, ctx.res, body);
  };
  router.post('/mcp', handle);
  router.get('/mcp', handle);
  router.delete('/mcp', handle);
  return sessions;
}
