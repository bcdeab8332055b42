// The Node HTTP server under the Koa app, with the doors' time and connection limits set where Node reads them: a
// request must arrive whole within request_timeout_ms (headers within headers_timeout_ms), else Node answers 408 and
// closes; at most max_connections sockets are open at once.
import { createServer, type RequestListener, type Server } from 'node:http';
import { DOORS } from '../registry/groups/doors.js';

export type HttpServerLimits = { requestTimeoutMs: number; headersTimeoutMs: number; checkIntervalMs: number; maxConnections: number };

export const DOOR_SERVER_LIMITS: HttpServerLimits = {
  requestTimeoutMs: DOORS.v.request_timeout_ms,
  headersTimeoutMs: DOORS.v.headers_timeout_ms,
  checkIntervalMs: DOORS.v.connections_check_interval_ms,
  maxConnections: DOORS.v.max_connections,
};

/** `limits` other than the registry's are for tests that need a timeout to expire in milliseconds. */
export function createHttpServer(handler: RequestListener, limits: HttpServerLimits = DOOR_SERVER_LIMITS): Server {
  const server = createServer({ requestTimeout: limits.requestTimeoutMs, headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs }, handler);
  server.maxConnections = limits.maxConnections;
  return server;
}
