// A fresh McpServer per session with every tool of OPERATIONS (v2 names and deprecated aliases), registered with
// the operation's zod input and output schemas. Scope is checked per call with the same `authorize` as REST; a
// failure is an `isError: true` result carrying the taxonomy code, never a thrown protocol error.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { authorize, type Caller } from '../auth/authorize.js';
import { toolEntries, type CallContext, type Operation } from '../contracts/operations.js';
import { JsonText, type OperationDeps } from '../contracts/operation-deps.js';
import { AppError, isAppError } from '../errors/app-error.js';
import { SERVING_VERSION } from '../registry/versions.js';
import { toolDescription } from './manifest.js';

/** What the HTTP handler attaches to each request (as `req.auth.extra`) for the tool callbacks to read. */
export type McpRequestAuth = { caller: Caller; requestId: string };

type Extra = { authInfo?: { extra?: Record<string, unknown> } };

function callOf(extra: Extra): CallContext {
  const a = extra.authInfo?.extra as McpRequestAuth | undefined;
  // The HTTP handler always attaches the caller; absent only if a transport bypassed it, which is then anonymous.
  return { caller: a?.caller ?? { kind: 'anonymous', ip: 'unknown' }, requestId: a?.requestId ?? '' };
}

export function toolError(e: unknown, requestId: string, log: (msg: string, extra?: unknown) => void): CallToolResult {
  const err = isAppError(e) ? e : new AppError('internal_error', 'internal error', { cause: e });
  if (!isAppError(e)) log(`mcp tool call ${requestId} failed`, (e as Error)?.stack ?? e);
  const message = err.expose ? err.message : 'internal error';
  const body = { error: { code: err.code, message, request_id: requestId, ...(err.expose && err.details != null ? { details: err.details } : {}) } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

async function runTool(op: Operation, args: unknown, deps: OperationDeps, call: CallContext, log: (m: string, x?: unknown) => void): Promise<CallToolResult> {
  const refusal = op.scope === 'operator' ? new AppError('unauthorized', 'operator operations are not tools') : authorize(call.caller, op.scope);
  if (refusal) return toolError(refusal, call.requestId, log);
  try {
    const answer = await op.handler!(args, deps, call);
    const out = (answer instanceof JsonText ? JSON.parse(answer.text) : answer) as Record<string, unknown>;
    return { structuredContent: out, content: [{ type: 'text', text: JSON.stringify(out) }] };
  } catch (e) {
    return toolError(e, call.requestId, log);
  }
}

export function createMcpServer(deps: OperationDeps, log: (msg: string, extra?: unknown) => void): McpServer {
  const server = new McpServer({ name: 'cook-lake-avm', version: SERVING_VERSION }, { capabilities: { tools: {} } });
  for (const t of toolEntries()) {
    const op = t.op;
    server.registerTool(
      t.name,
      {
        description: toolDescription(op.summary, t.replacement),
        inputSchema: op.input as never,
        outputSchema: op.output as never,
        annotations: { readOnlyHint: op.scope === 'read' || op.scope === 'underwrite', openWorldHint: false },
        _meta: { scope: op.scope, deprecated: t.deprecated, ...(t.replacement ? { replacement: t.replacement } : {}) },
      },
      (async (args: unknown, extra: Extra) => runTool(op, args, deps, callOf(extra), log)) as never,
    );
  }
  return server;
}
