// GET /api/events over real HTTP: replay with ids, resume by Last-Event-ID / ?after=, live records, heartbeat, cleanup.
import { connect } from 'node:net';
import { Router } from '@koa/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventRecord } from '../../src/events/kinds.js';
import { getEventLog, type EventLog } from '../../src/events/log.js';
import { eventsStreamHandler } from '../../src/http/events-stream.js';
import { openSse, rawRequest, serve, tempEnv, type SseMessage, type TempEnv, type TestServer } from './middleware/support.js';

let t: TempEnv;
let log: EventLog;
let server: TestServer;

async function start(opts: { replayMax?: number } = {}): Promise<TestServer> {
  server = await serve((app) => {
    const router = new Router();
    router.get('/api/events', eventsStreamHandler({ log, ...opts }));
    app.use(router.routes());
  });
  return server;
}
const records = (m: SseMessage[]): SseMessage[] => m.filter((x) => x.id !== undefined);
const kinds = ['favorite_saved', 'preset_updated', 'note_added'] as const;

beforeEach(async () => {
  t = tempEnv();
  log = getEventLog(t.env);
  for (const kind of kinds) await log.appendEvent({ kind, payload: { n: kind }, actor: 'key:abc' });
});
afterEach(async () => {
  vi.useRealTimers();
  await server.close();
  await t.dispose();
});

describe('eventsStreamHandler({ log })', () => {
  it('replays stored records with SSE ids and the {id, kind, at, actor, payload} format', async () => {
    await start();
    const sse = await openSse(server.port, '/api/events');
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
    const got = records(await sse.until((m) => records(m).length >= 3));
    expect(got.map((m) => m.id)).toEqual(['1', '2', '3']);
    const first = JSON.parse(got[0].data) as EventRecord;
    expect(first).toMatchObject({ id: 1, kind: 'favorite_saved', actor: 'key:abc', payload: { n: 'favorite_saved' } });
    expect(new Date(first.at).toISOString()).toBe(first.at);
    sse.close();
  });

  it('resumes after Last-Event-ID with only newer records, then streams live ones', async () => {
    await start();
    const sse = await openSse(server.port, '/api/events', { 'Last-Event-ID': '2' });
    await sse.until((m) => records(m).length >= 1);
    await log.appendEvent({ kind: 'fly_to', payload: { lat: 41.9, lon: -87.7, zoom: 14 }, actor: 'key:abc' });
    const got = records(await sse.until((m) => records(m).length >= 2));
    expect(got.map((m) => m.id)).toEqual(['3', '4']);
    expect(JSON.parse(got[1].data).kind).toBe('fly_to');
    sse.close();
  });

  it('accepts ?after= as the resume point, and Last-Event-ID wins over it', async () => {
    await start();
    const byQuery = await openSse(server.port, '/api/events?after=1');
    expect(records(await byQuery.until((m) => records(m).length >= 2)).map((m) => m.id)).toEqual(['2', '3']);
    byQuery.close();
    const both = await openSse(server.port, '/api/events?after=0', { 'Last-Event-ID': '2' });
    await both.until((m) => records(m).length >= 1);
    await log.appendEvent({ kind: 'highlight', payload: { ids: [] }, actor: 'a' });
    expect(records(await both.until((m) => records(m).length >= 2)).map((m) => m.id)).toEqual(['3', '4']);
    both.close();
  });

  it('answers 400 validation_failed for a non-integer resume point', async () => {
    await start();
    for (const path of ['/api/events?after=-1', '/api/events?after=abc']) {
      const res = await rawRequest(server.port, { path });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error.code).toBe('validation_failed');
    }
    const res = await rawRequest(server.port, { path: '/api/events', headers: [['Last-Event-ID', '1e3']] });
    expect(res.status).toBe(400);
  });

  it('bounds replay to the newest replayMax records and announces the gap', async () => {
    await start({ replayMax: 2 });
    const fresh = await openSse(server.port, '/api/events');
    expect(records(await fresh.until((m) => records(m).length >= 2)).map((m) => m.id)).toEqual(['2', '3']);
    fresh.close();
    const stale = await openSse(server.port, '/api/events', { 'Last-Event-ID': '0' });
    await stale.until((m) => records(m).length >= 2);
    stale.close();
    await log.appendEvent({ kind: 'highlight', payload: {}, actor: 'a' }); // ids 1..4; after=1 misses id 2
    const gap = await openSse(server.port, '/api/events?after=1');
    const msgs = await gap.until((m) => records(m).length >= 2);
    expect(msgs.find((m) => m.event === 'replay_truncated')?.data).toBe(JSON.stringify({ requested_after: 1, oldest_available: 3 }));
    expect(records(msgs).map((m) => m.id)).toEqual(['3', '4']);
    gap.close();
  });

  it('sends a heartbeat comment every 15 s and unsubscribes when the client disconnects', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await start();
    const sse = await openSse(server.port, '/api/events?after=3');
    await sse.until((m) => m.some((x) => x.comment === 'connected'));
    expect(log.listenerCount()).toBe(1);
    vi.advanceTimersByTime(15_000);
    await sse.until((m) => m.some((x) => x.comment === 'heartbeat'));
    expect(sse.messages.filter((x) => x.comment === 'heartbeat')).toHaveLength(1);
    sse.close();
    await vi.waitFor(() => expect(log.listenerCount()).toBe(0), { timeout: 5_000, interval: 20 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('drops a client that stops reading once its backlog passes maxBufferedBytes', async () => {
    server = await serve((app) => app.use(eventsStreamHandler({ log, maxBufferedBytes: 64 * 1024 })));
    const sock = connect(server.port, '127.0.0.1');
    sock.write(`GET /api/events?after=3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    sock.pause(); // never read: kernel buffers fill, then the server-side backlog grows
    await vi.waitFor(() => expect(log.listenerCount()).toBe(1), { timeout: 5_000, interval: 10 });
    const big = 'x'.repeat(512 * 1024);
    // 64 x 512 KiB = 32 MiB offered, far above loopback socket buffers plus the 64 KiB budget.
    for (let i = 0; i < 64 && log.listenerCount() > 0; i++) await log.appendEvent({ kind: 'highlight', payload: { big }, actor: 'a' });
    await vi.waitFor(() => expect(log.listenerCount()).toBe(0), { timeout: 10_000, interval: 20 });
    sock.destroy();
  });
});
