// POST/GET/DELETE /mcp in the Koa app: the canonical path, Host/Origin guard, caller and audit ran before (shared
// middleware, on every request: the protocol is stateless, nothing is trusted from an earlier one); here a rejected
// key is refused, the metered messages draw on the shared limiter (HTTP 429 + Retry-After), then Koa steps aside
// (`ctx.respond = false`) and the tool server answers on the raw request. The tool server is handed in (server.ts
// composes the doors): http never imports mcp.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type { DoorServices } from '../app/door-services.js';
import type { CallContext } from '../app/operations.js';
import { authorize } from '../auth/authorize.js';
import { toolEntries } from '../contracts/operations.js';
import { AppError } from '../errors/app-error.js';
import { readJsonBody } from './body.js';
import { callerOf } from './middleware/auth.js';
import { assertDistinctRequestIds, assertToolCallEnvelopes } from './tool-call-envelope.js';
import { setBearerChallenge } from './oauth/challenge.js';
import { limitSubjectOf, rateLimitedError, rateLimitHeaders } from './middleware/rate-limit.js';

/** What the tool door offers: answer one HTTP request (the body already parsed), and end in-flight exchanges at shutdown. */
export type ToolDoor = {
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, call: CallContext): Promise<void>;
  closeAll(): Promise<void>;
};

/**
 * Messages that draw on the caller's rate limit: each tool call, and each handshake (2025-era `initialize`, 2026-07-28
 * `server/discover`), so a flood of handshakes costs the caller as much as a flood of calls.
 */
const METERED_METHODS = new Set(['tools/call', 'initialize', 'server/discover']);

function countMetered(body: unknown): number {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.filter((m) => METERED_METHODS.has((m as { method?: unknown })?.method as string)).length;
}

/** The scope each tool name (v2 names and aliases) requires; an unknown name is left to the SDK's own answer. */
const TOOL_SCOPES = new Map(toolEntries().map((t) => [t.name, t.op.scope]));

/**
 * The first refusal among the batch's tools/call messages, as HTTP: an OAuth client can only start (or step up) a
 * sign-in from a 401/403 with a Bearer challenge, not from a tool result (issue 16). The tool server checks again.
 */
function toolCallRefusal(body: unknown, caller: ReturnType<typeof callerOf>): AppError | null {
  for (const m of Array.isArray(body) ? body : [body]) {
    if ((m as { method?: unknown })?.method !== 'tools/call') continue;
    const scope = TOOL_SCOPES.get((m as { params: { name: string } }).params.name);
    if (!scope) continue;
    const refusal = scope === 'operator' ? new AppError('unauthorized', 'operator operations are not tools') : authorize(caller, scope);
    if (refusal) return refusal;
  }
  return null;
}

export function registerToolRoutes(router: Router, doors: DoorServices, tools: ToolDoor, origin: () => string): void {
  const handle = async (ctx: Context): Promise<void> => {
    ctx.state.operationId = 'mcp';
    const caller = callerOf(ctx);
    const refused = authorize(caller, 'read'); // only a rejected (malformed, unknown, revoked) key is refused here
    if (refused) {
      setBearerChallenge(ctx, origin(), refused, caller);
      throw refused;
    }
    const body = ctx.method === 'POST' ? await readJsonBody(ctx) : undefined;
    assertToolCallEnvelopes(body);
    assertDistinctRequestIds(body);
    const scopeRefusal = toolCallRefusal(body, caller);
    if (scopeRefusal) {
      setBearerChallenge(ctx, origin(), scopeRefusal, caller);
      throw scopeRefusal;
    }
    for (let n = countMetered(body); n > 0; n--) {
      const d = await doors.limiter.check(limitSubjectOf(caller));
      ctx.set(rateLimitHeaders(d));
      if (!d.allowed) throw rateLimitedError(d);
    }
    for (const [k, v] of Object.entries(ctx.response.headers)) if (!ctx.res.headersSent) ctx.res.setHeader(k, v as string);
    ctx.respond = false;
    await tools.handle(ctx.req, ctx.res, body, { caller, requestId: String(ctx.state.requestId ?? '') });
  };
  router.post('/mcp', handle);
  router.get('/mcp', handle);
  router.delete('/mcp', handle);
}
