// The MCP tool door over streamable HTTP, served by SDK v2's `createMcpHandler`: revision 2026-07-28 (stateless, every
// request carries its version and capabilities) and, for 2025-era clients, the SDK's stateless legacy fallback (a
// fresh server per request, no Mcp-Session-Id). No session is held, so nothing one caller sends can push out another
// caller's state. Each request's caller rides on `req.auth` for the tool callbacks (server.ts). Knows nothing of Koa.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { CallContext, OperationFn } from '../app/operations.js';
import { DOORS } from '../registry/groups/doors.js';
import { createMcpServer, type McpRequestAuth } from './server.js';

type Log = (msg: string, extra?: unknown) => void;

/**
 * The SDK's transport reports through onerror both its own failures and every request it refuses as the client's fault
 * (answered 4xx: not JSON-RPC, a bad batch, a missing envelope, a wrong Accept or Content-Type). Those are warnings.
 */
const CLIENT_FAULT = /^(Rejected inbound request|Bad Request|Not Acceptable|Unsupported Media Type|Invalid Request|Invalid params|Parse error|Method not allowed)\b/;

export function createToolDoor(operations: ReadonlyMap<string, OperationFn>, o: { log: Log; warn: Log }) {
  const onerror = (e: Error): void => (CLIENT_FAULT.test(e.message) ? o.warn('mcp request rejected', e.message) : o.log('mcp handler error', e.stack ?? e.message));
  const handler = createMcpHandler(() => createMcpServer(operations, o.log), { legacy: 'stateless', onerror, maxRequestBodySize: DOORS.v.json_body_max_bytes });
  const serve = toNodeHandler(handler, { onerror, maxRequestBodySize: DOORS.v.json_body_max_bytes });
  return {
    async handle(req: IncomingMessage, res: ServerResponse, body: unknown, call: CallContext): Promise<void> {
      const extra: McpRequestAuth = call;
      const caller = call.caller;
      const auth = { token: '', clientId: caller.kind === 'key' ? caller.key.id : 'anonymous', scopes: caller.kind === 'key' ? [...caller.key.scopes] : [], extra };
      await serve(Object.assign(req, { auth }), res, body);
    },
    closeAll: () => handler.close(),
  };
}
