// MCP sessions: one StreamableHTTPServerTransport and one fresh McpServer per session id, removed when the
// session closes, idle too long, or pushed out by the session cap (least recently used first).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { DOORS } from '../registry/groups/doors.js';

type Session = { transport: StreamableHTTPServerTransport; server: McpServer; lastSeenMs: number };

export type McpSessions = {
  get(id: string): Session | undefined;
  /** Creates a session for an initialize request and lets its transport answer it. */
  open(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
  size(): number;
  closeAll(): Promise<void>;
};

export function createMcpSessions(makeServer: () => McpServer, now: () => number = Date.now): McpSessions {
  const sessions = new Map<string, Session>();
  const drop = (id: string): void => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    void s.server.close().catch(() => undefined);
  };
  const makeRoom = (): void => {
    const nowMs = now();
    for (const [id, s] of sessions) if (nowMs - s.lastSeenMs > DOORS.v.mcp_session_idle_ms) drop(id);
    // Map order is insertion order and get() re-inserts, so the first key is the least recently used.
    while (sessions.size >= DOORS.v.mcp_max_sessions) drop(sessions.keys().next().value as string);
  };
  return {
    get(id) {
      const s = sessions.get(id);
      if (s) {
        s.lastSeenMs = now();
        sessions.delete(id);
        sessions.set(id, s);
      }
      return s;
    },
    async open(req, res, body) {
      makeRoom();
      const server = makeServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server, lastSeenMs: now() });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
    size: () => sessions.size,
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
    },
  };
}
