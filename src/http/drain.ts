// The shutdown drain of the HTTP door. Once it begins: a request arriving on a kept-alive connection is answered 503
// shutting_down with Connection: close (never started), requests already in flight finish and their responses close
// their connections, and settle() waits for them within a bounded time, after which those still unanswered get the
// same 503 instead of a reset. Event streams (GET with Accept: text/event-stream) are not waited for: they end on the
// service's shutdown signal.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Context, Middleware, Next } from 'koa';
import { errorBody } from '../contracts/error-body.js';
import { AppError } from '../errors/app-error.js';
import { DOORS } from '../registry/groups/doors.js';

export type Drain = {
  /** Mount right after the error middleware, so the 503 is the one error body with the request id. */
  middleware: Middleware;
  begin(): void;
  /** Resolves when no request is in flight, or after `timeoutMs`; `unfinished`: requests answered 503 at the deadline. */
  settle(timeoutMs: number): Promise<{ unfinished: number }>;
  inFlight(): number;
};

/** Resolves after `n` turns of the event loop (each setImmediate waits for the poll phase of the next turn). */
function eventLoopTurns(n: number): Promise<void> {
  return n <= 0 ? Promise.resolve() : new Promise<void>((resolve) => setImmediate(resolve)).then(() => eventLoopTurns(n - 1));
}

const isEventStream = (ctx: Context): boolean => ctx.method === 'GET' && (ctx.get('Accept') ?? '').includes('text/event-stream');

function shuttingDown(): AppError {
  return new AppError('shutting_down', 'the service is shutting down; retry', { retryAfterSec: DOORS.v.drain_retry_after_s });
}

/** Answers an unfinished response with 503 shutting_down on the raw response (Koa then finds it written and stays out). */
function answerShuttingDown(res: ServerResponse, requestId: string): void {
  const e = shuttingDown();
  res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close', 'Retry-After': String(e.retryAfterSec), 'X-Request-Id': requestId });
  res.end(JSON.stringify(errorBody(e, requestId)));
}

export function createDrain(): Drain {
  let draining = false;
  const active = new Set<Context>();
  const idleWaiters: Array<(idle: boolean) => void> = [];
  const release = (ctx: Context): void => {
    active.delete(ctx);
    if (active.size === 0) idleWaiters.splice(0).forEach((w) => w(true));
  };
  /** True once no request is in flight, false if `ms` pass first. */
  const idleWithin = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (active.size === 0) return resolve(true);
      const timer = setTimeout(() => resolve(false), Math.max(0, ms));
      idleWaiters.push((idle) => {
        clearTimeout(timer);
        resolve(idle);
      });
    });
  const middleware = async (ctx: Context, next: Next): Promise<void> => {
    if (draining) {
      ctx.set('Connection', 'close');
      throw shuttingDown();
    }
    // In flight until both its work has ended and its response is closed: a client that leaves early closes the
    // response while its valuation still runs, and the pool must not be closed under that work.
    let worked = false;
    let closed = false;
    const tracked = !isEventStream(ctx);
    const settleIfDone = (): void => {
      if (worked && closed) release(ctx);
    };
    if (tracked) {
      active.add(ctx);
      ctx.res.once('close', () => {
        closed = true;
        settleIfDone();
      });
    }
    try {
      await next();
    } finally {
      // A response decided after the drain began closes its connection, so the client does not send on it again.
      if (draining && !ctx.res.headersSent) ctx.set('Connection', 'close');
      worked = true;
      if (tracked) settleIfDone();
    }
  };
  return {
    middleware,
    begin: () => {
      draining = true;
    },
    inFlight: () => active.size,
    settle: async (timeoutMs) => {
      const deadlineMs = Date.now() + timeoutMs;
      for (;;) {
        // A request whose bytes sit on a socket the loop has not read yet (one just accepted) joins `active` within
        // two turns; idle connections are closed after settle(), so it must be seen before then.
        await eventLoopTurns(2);
        if (active.size === 0) return { unfinished: 0 };
        if (!(await idleWithin(deadlineMs - Date.now()))) {
          const late = [...active].filter((ctx) => !ctx.res.headersSent && !ctx.res.destroyed);
          for (const ctx of late) answerShuttingDown(ctx.res, String(ctx.state.requestId ?? ''));
          return { unfinished: late.length };
        }
      }
    },
  };
}

/**
 * Stops accepting connections but keeps the open ones (net.Server's close: http.Server's own also closes idle
 * keep-alive connections at once, and a request a client is writing on one then meets a reset instead of a 503).
 * Connections the kernel already completed wait in the accept backlog, and closing the listener would reset them; so
 * the listener closes only once two turns of the event loop pass without accepting one (Node may take one per turn),
 * or at `deadlineMs`: those connections are accepted and their requests answered 503. Resolves when the listener is
 * closed, with `allClosed`, which resolves once every connection is closed.
 */
export async function stopListening(server: Server, deadlineMs: number): Promise<{ allClosed: Promise<void> }> {
  let accepted = 0;
  const count = (): void => {
    accepted++;
  };
  server.on('connection', count);
  const acceptBacklog = async (): Promise<void> => {
    for (let seen = -1; seen !== accepted && Date.now() < deadlineMs; ) {
      seen = accepted;
      await eventLoopTurns(2);
    }
    server.off('connection', count);
  };
  await acceptBacklog();
  return { allClosed: new Promise((resolve) => NetServer.prototype.close.call(server, () => resolve())) };
}
