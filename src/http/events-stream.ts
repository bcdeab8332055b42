// GET /api/events: Server-Sent Events over the event log, resumable by Last-Event-ID or ?after=, heartbeats, bounded
// replay. Filtered by the caller: map-control records reach everyone, a user-state record only its owner's key.
import { PassThrough } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { ownerOf } from '../auth/authorize.js';
import { AppError } from '../errors/app-error.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { isVisibleTo, type EventRecord } from '../events/kinds.js';
import type { EventLog } from '../events/log.js';
import { callerOf } from './middleware/auth.js';

export type EventsStreamOptions = {
  log: EventLog;
  heartbeatMs?: number;
  replayMax?: number;
  replayMaxBytes?: number;
  replayScanMax?: number;
  maxBufferedBytes?: number;
  /** Aborted at shutdown: every open stream ends (a clean end of the chunked response; EventSource reconnects). */
  shutdown?: AbortSignal;
  /** The owner whose private records this request may see (null: public records only); default: the caller's key. */
  viewer?: (ctx: Context) => string | null;
};

/**
 * `Last-Event-ID` (what EventSource sends on reconnect) wins over `?after=`; null when neither is given ("from the start
 * of the replay window").
 */
export function resumePoint(lastEventId: unknown, afterQuery: unknown): number | null {
  const pick = (v: unknown): string | undefined => {
    const s = Array.isArray(v) ? v[0] : v;
    return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
  };
  const raw = pick(lastEventId) ?? pick(afterQuery);
  if (raw === undefined) return null;
  if (!/^\d{1,15}$/.test(raw)) throw new AppError('validation_failed', 'Last-Event-ID / after must be a non-negative integer event id');
  return Number(raw);
}

export function formatRecord(rec: EventRecord): string {
  return `id: ${rec.id}\ndata: ${JSON.stringify(rec)}\n\n`;
}

type ReplayLimits = { maxRecords: number; maxBytes: number; maxScan: number };

/**
 * The newest records after `after` the viewer may see, within the record and byte budgets, oldest first, as SSE text.
 * `truncated` when older visible records were left out (or the scan stopped before reaching `after`).
 */
export async function replayWindow(log: EventLog, after: number, visible: (rec: EventRecord) => boolean, l: ReplayLimits): Promise<{ chunks: Array<{ id: number; text: string }>; truncated: boolean }> {
  const picked: Array<{ id: number; text: string }> = [];
  let bytes = 0;
  let scanned = 0;
  let oldestScanned = Number.POSITIVE_INFINITY;
  for (const rec of await log.newestAfter(after, l.maxScan)) {
    scanned++;
    oldestScanned = rec.id;
    if (!visible(rec)) continue;
    const text = formatRecord(rec);
    const size = Buffer.byteLength(text);
    if (picked.length >= l.maxRecords || bytes + size > l.maxBytes) return { chunks: picked.reverse(), truncated: true };
    picked.push({ id: rec.id, text });
    bytes += size;
  }
  // With nothing scanned (a zero scan budget) the newest record stands in for the oldest scanned one: one read, only then.
  const scanStopped = scanned >= l.maxScan && (scanned > 0 ? oldestScanned : (await log.lastId()) + 1) > after + 1;
  return { chunks: picked.reverse(), truncated: scanStopped };
}

/**
 * Records are sent as unnamed SSE messages (EventSource `onmessage`), with the record kind inside `data`.
 * When the client gave a resume point and the replay could not cover everything after it, a named `replay_truncated`
 * event tells it to reload its state (GET /api/state) instead of trusting the stream for the gap.
 */
export function eventsStreamHandler(opts: EventsStreamOptions): Middleware {
  const heartbeatMs = opts.heartbeatMs ?? AUTH_LIMITS.v.sse_heartbeat_ms;
  const limits: ReplayLimits = {
    maxRecords: opts.replayMax ?? AUTH_LIMITS.v.sse_replay_max,
    maxBytes: opts.replayMaxBytes ?? AUTH_LIMITS.v.sse_replay_max_bytes,
    maxScan: opts.replayScanMax ?? AUTH_LIMITS.v.sse_replay_scan_max,
  };
  const maxBuffered = opts.maxBufferedBytes ?? AUTH_LIMITS.v.sse_max_buffered_bytes;
  const viewerOf = opts.viewer ?? ((ctx: Context) => ownerOf(callerOf(ctx)));
  return async (ctx: Context) => {
    const resume = resumePoint(ctx.get('Last-Event-ID'), ctx.query.after);
    const after = resume ?? 0;
    const viewer = viewerOf(ctx);
    const visible = (rec: EventRecord): boolean => isVisibleTo(rec, viewer);
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
    // Records that arrive while the replay is read (it is a query on PostgreSQL) wait here and follow it, minus those
    // the replay already holds, so the client sees each id once and in order.
    let held: EventRecord[] | null = [];
    const live = (rec: EventRecord): void => {
      if (rec.id <= lastSent) return;
      lastSent = rec.id;
      if (visible(rec)) send(formatRecord(rec));
    };
    const unsubscribe = opts.log.subscribe((rec) => (held ? held.push(rec) : live(rec)));
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs);
    const endStream = (): void => {
      out.end();
    };
    opts.shutdown?.addEventListener('abort', endStream, { once: true });
    const cleanup = (): void => {
      clearInterval(heartbeat);
      unsubscribe();
      opts.shutdown?.removeEventListener('abort', endStream);
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
    let window: Awaited<ReturnType<typeof replayWindow>>;
    try {
      window = await replayWindow(opts.log, after, visible, limits);
    } catch {
      // the store did not answer: end this stream; the client reconnects with its Last-Event-ID and replays then
      out.end();
      return;
    }
    const { chunks, truncated } = window;
    if (truncated && resume !== null) {
      send(`event: replay_truncated\ndata: ${JSON.stringify({ requested_after: after, oldest_available: chunks[0]?.id ?? null })}\n\n`, true);
    }
    for (const c of chunks) {
      send(c.text, true);
      lastSent = Math.max(lastSent, c.id);
    }
    // The end of the replay: what came before it was already in the log when this connection opened (a page that just
    // opened treats it as history, not as commands to it); what follows is live.
    send(`event: replayed\ndata: ${JSON.stringify({ last_id: lastSent })}\n\n`, true);
    const waiting = held;
    held = null;
    for (const rec of waiting) live(rec);
  };
}
