// The MCP tool door over streamable HTTP: one SDK transport and McpServer per session (sessions.ts); a request with an
// unknown session id, or without one that is not an initialize, gets its JSON-RPC error here. Each request's caller
// rides on `req.auth` for the tool callbacks (server.ts). Knows nothing of Koa: the HTTP door hands it raw requests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CallContext, OperationFn } from '../app/operations.js';
import { createMcpServer, type McpRequestAuth } from './server.js';
import { createMcpSessions } from './sessions.js';

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export function createToolDoor(operations: ReadonlyMap<string, OperationFn>, o: { log: (msg: string, extra?: unknown) => void; now: () => number }) {
  const sessions = createMcpSessions(() => createMcpServer(operations, o.log), o.now);
  return {
    async handle(req: IncomingMessage, res: ServerResponse, body: unknown, call: CallContext): Promise<void> {
      const header = req.headers['mcp-session-id'];
      const sessionId = Array.isArray(header) ? header[0] : header;
      const session = sessionId ? sessions.get(sessionId) : undefined;
      if (sessionId && !session) return jsonRpcError(res, 404, -32001, 'Session not found');
      if (!session && !(req.method === 'POST' && isInitializeRequest(body))) return jsonRpcError(res, 400, -32000, 'Bad Request: no valid session id; send initialize first');
      const auth: McpRequestAuth = call;
      const caller = call.caller;
      Object.assign(req, { auth: { token: '', clientId: caller.kind === 'key' ? caller.key.id : 'anonymous', scopes: caller.kind === 'key' ? caller.key.scopes : [], extra: auth } });
      if (session) await session.transport.handleRequest(req, res, body);
      else await sessions.open(req, res, body);
    },
    closeAll: () => sessions.closeAll(),
  };
}
