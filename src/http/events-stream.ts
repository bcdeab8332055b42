// GET /api/events: Server-Sent Events over the event log, resumable by Last-Event-ID or ?after=, heartbeats, bounded replay.
import { PassThrough } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { AppError } from '../errors/app-error.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import type { EventRecord } from '../events/kinds.js';
import type { EventLog } from '../events/log.js';

export type EventsStreamOptions = {
  log: EventLog;
  heartbeatMs?: number;
  replayMax?: number;
  maxBufferedBytes?: number;
};

/** `Last-Event-ID` (what EventSource sends on reconnect) wins over `?after=`; neither means "from the start of the replay window". */
export function resumePoint(lastEventId: unknown, afterQuery: unknown): number {
  const pick = (v: unknown): string | undefined => {
    const s = Array.isArray(v) ? v[0] : v;
    return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
  };
  const raw = pick(lastEventId) ?? pick(afterQuery);
  if (raw === undefined) return 0;
  if (!/^\d{1,15}$/.test(raw)) throw new AppError('validation_failed', 'Last-Event-ID / after must be a non-negative integer event id');
  return Number(raw);
}

export function formatRecord(rec: EventRecord): string {
  return `id: ${rec.id}\ndata: ${JSON.stringify(rec)}\n\n`;
}

/**
 * Records are sent as unnamed SSE messages (EventSource `onmessage`), with the record kind inside `data`.
 * When the resume point is older than the replay window, a named `replay_truncated` event tells the client
 * to reload its state instead of trusting the stream for the gap.
 */
export function eventsStreamHandler(opts: EventsStreamOptions): Middleware {
  const heartbeatMs = opts.heartbeatMs ?? AUTH_LIMITS.v.sse_heartbeat_ms;
  const replayMax = opts.replayMax ?? AUTH_LIMITS.v.sse_replay_max;
  const maxBuffered = opts.maxBufferedBytes ?? AUTH_LIMITS.v.sse_max_buffered_bytes;
  return async (ctx: Context) => {
    const after = resumePoint(ctx.get('Last-Event-ID'), ctx.query.after);
    const out = new PassThrough();
    let lastSent = after;
    let replayBytes = 0; // the bounded replay is always written whole; the slow-client budget applies on top of it
    const send = (chunk: string, isReplay = false): void => {
      if (out.destroyed || out.writableEnded) return;
      if (isReplay) replayBytes += Buffer.byteLength(chunk);
      else if (out.writableLength > maxBuffered + replayBytes) {
        ctx.res.destroy(); // too slow: drop the connection; the client reconnects with Last-Event-ID and replays
        return;
      }
      out.write(chunk);
    };
    const unsubscribe = opts.log.subscribe((rec) => {
      if (rec.id <= lastSent) return;
      lastSent = rec.id;
      send(formatRecord(rec));
    });
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs);
    const cleanup = (): void => {
      clearInterval(heartbeat);
      unsubscribe();
    };
    out.once('close', cleanup);
    ctx.res.once('close', () => {
      cleanup();
      out.destroy();
    });

    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    ctx.body = out;

    send(': connected\n\n');
    replay(opts.log, after, replayMax, (chunk) => send(chunk, true), (id) => {
      lastSent = Math.max(lastSent, id);
    });
  };
}

function replay(log: EventLog, after: number, max: number, send: (s: string) => void, sent: (id: number) => void): void {
  const records = log.readAfter(after, max);
  if (after > 0 && log.lastId() - after > max && records.length > 0) {
    send(`event: replay_truncated\ndata: ${JSON.stringify({ requested_after: after, oldest_available: records[0].id })}\n\n`);
  }
  for (const rec of records) {
    send(formatRecord(rec));
    sent(rec.id);
  }
}
