// The Node HTTP server under the Koa app, with the doors' time and connection limits set where Node reads them: a
// request must arrive whole within request_timeout_ms (headers within headers_timeout_ms), else Node answers 408 and
// closes; at most max_connections sockets are open at once. A request Node's parser refuses before any handler runs
// (request line and headers over the size limit, malformed HTTP) still gets the one error body with a taxonomy code.
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from '../contracts/error-body.js';
import { AppError } from '../errors/app-error.js';
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
  server.on('clientError', answerClientError);
  return server;
}

/** The parser errors Node reports before a request exists, as the taxonomy names them (anything else: malformed). */
function appErrorOfParserError(code: string | undefined): AppError {
  if (code === 'HPE_HEADER_OVERFLOW') return new AppError('request_header_too_large', 'the request line and headers exceed 16 KiB');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new AppError('request_timeout', 'the request did not arrive whole within the time limit');
  return new AppError('validation_failed', 'the request is not well-formed HTTP/1.1');
}

/**
 * Node's own answers to a refused request (400, 408, 431) with the error body instead of an empty one, as Node does it:
 * written only when nothing was sent on the socket yet, then the socket destroyed with the error (the body reader reads
 * `socket.errored` to tell a timeout from a client that left).
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }): void {
  if (err.code !== 'ECONNRESET' && socket.writable && (socket.bytesWritten ?? 0) === 0) {
    const e = appErrorOfParserError(err.code);
    const requestId = randomUUID();
    const body = JSON.stringify(errorBody(e, requestId));
    socket.write(
      `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${requestId}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
