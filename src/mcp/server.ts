// A fresh McpServer (SDK v2) per served request with every tool of OPERATIONS (v2 names and deprecated aliases),
// registered with the operation's zod input and output schemas. Scope is checked per call with the same `authorize`
// as REST; a failure is an `isError: true` result carrying the taxonomy code, never a thrown protocol error.
import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { CallContext, OperationFn } from '../app/operations.js';
import { authorize } from '../auth/authorize.js';
import { errorBody } from '../contracts/error-body.js';
import { SERVER_INSTRUCTIONS, toolAnnotations, toolDescription, toolTextOf } from '../contracts/tool-text.js';
import { toolEntries, type Operation } from '../contracts/operations.js';
import { bodyOf } from '../contracts/reply.js';
import { AppError, isAppError } from '../errors/app-error.js';
import { validationError } from '../errors/validation.js';
import { storeUnavailableError } from '../store/pg/unavailable.js';
import { listedInputSchema } from './listed-schema.js';
import { SERVING_VERSION } from '../registry/versions.js';
import { registerMapAppResource, registerToolWithApp } from './app/map-app.js';

/** What the door attaches to each request (as `req.auth.extra`) for the tool callbacks to read. */
export type McpRequestAuth = CallContext;

function callOf(ctx: ServerContext): CallContext {
  const a = ctx.http?.authInfo?.extra as McpRequestAuth | undefined;
  // The HTTP handler always attaches the caller; absent only if a transport bypassed it, which is then anonymous.
  return { caller: a?.caller ?? { kind: 'anonymous', ip: 'unknown' }, requestId: a?.requestId ?? '' };
}

export function toolError(e: unknown, requestId: string, log: (msg: string, extra?: unknown) => void): CallToolResult {
  const err = isAppError(e) ? e : (storeUnavailableError(e) ?? new AppError('internal_error', 'internal error', { cause: e }));
  if (!isAppError(e)) log(`mcp tool call ${requestId} failed`, (e as Error)?.stack ?? e);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorBody(err, requestId)) }] };
}

async function runTool(op: Operation, fn: OperationFn, args: unknown, call: CallContext, log: (m: string, x?: unknown) => void): Promise<CallToolResult> {
  const refusal = op.scope === 'operator' ? new AppError('unauthorized', 'operator operations are not tools') : authorize(call.caller, op.scope);
  if (refusal) return toolError(refusal, call.requestId, log);
  // Validated here rather than by the SDK, so a bad input is validation_failed in the one error body (401/403 first).
  const parsed = op.input.safeParse(args ?? {});
  if (!parsed.success) return toolError(validationError(parsed.error, `arguments of ${op.tool?.name ?? op.id}`), call.requestId, log);
  try {
    const out = bodyOf(await fn(parsed.data as never, call)) as Record<string, unknown>;
    return { structuredContent: out, content: [{ type: 'text', text: JSON.stringify(out) }] };
  } catch (e) {
    return toolError(e, call.requestId, log);
  }
}

export function createMcpServer(operations: ReadonlyMap<string, OperationFn>, log: (msg: string, extra?: unknown) => void): McpServer {
  const server = new McpServer({ name: 'cook-lake-avm', version: SERVING_VERSION }, { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS });
  for (const t of toolEntries()) {
    const op = t.op;
    const fn = operations.get(op.id);
    if (!fn) continue;
    registerToolWithApp(
      server,
      t.name,
      {
        title: toolTextOf(op.id).title,
        description: toolDescription(op.id, op.summary, t.replacement),
        inputSchema: listedInputSchema(op.input) as never,
        outputSchema: op.output as never,
        annotations: toolAnnotations(op.id),
        _meta: { scope: op.scope, deprecated: t.deprecated, ...(t.replacement ? { replacement: t.replacement } : {}) },
      },
      (async (args: unknown, ctx: ServerContext) => runTool(op, fn, args, callOf(ctx), log)) as never,
    );
  }
  registerMapAppResource(server);
  return server;
}
