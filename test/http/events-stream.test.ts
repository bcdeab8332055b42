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

async function start(opts: { replayMax?: number; replayMaxBytes?: number; replayScanMax?: number; viewer?: () => string | null } = {}): Promise<TestServer> {
  server = await serve((app) => {
    const router = new Router();
    router.get('/api/events', eventsStreamHandler({ log, ...opts }));
    app.use(router.routes());
  });
  return server;
}
const records = (m: SseMessage[]): SseMessage[] => m.filter((x) => x.id !== undefined);
const kinds = ['fly_to', 'highlight', 'map_filters_updated'] as const;

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
    expect(first).toMatchObject({ id: 1, kind: 'fly_to', actor: 'key:abc', payload: { n: 'fly_to' } });
    expect(new Date(first.at).toISOString()).toBe(first.at);
    sse.close();
  });

  it('marks the end of the replay with a `replayed` event naming the last replayed id; live records come after it', async () => {
    await start();
    const sse = await openSse(server.port, '/api/events');
    const replay = await sse.until((m) => m.some((x) => x.event === 'replayed'));
    expect(JSON.parse(replay.find((x) => x.event === 'replayed')!.data)).toEqual({ last_id: 3 });
    expect(records(replay).map((m) => m.id)).toEqual(['1', '2', '3']); // all before the marker
    await log.appendEvent({ kind: 'fly_to', payload: { lat: 41.9, lon: -87.7, zoom: 14 }, actor: 'key:abc' });
    const all = await sse.until((m) => records(m).length >= 4);
    const at = (pred: (x: (typeof all)[number]) => boolean): number => all.findIndex(pred);
    expect(at((x) => x.id === '4')).toBeGreaterThan(at((x) => x.event === 'replayed'));
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

  it('shows a user-state record only to its owner, in replay and live; map-control records to everyone', async () => {
    await log.appendEvent({ kind: 'note_added', payload: { body: 'mine' }, actor: 'key:new', owner: 'key:root' });
    await log.appendEvent({ kind: 'favorite_saved', payload: { property_id: 'x' }, actor: 'key:other', owner: 'key:other' });
    await start({ viewer: () => 'key:root' });
    const owner = await openSse(server.port, '/api/events?after=0');
    await owner.until((m) => records(m).length >= 4);
    await log.appendEvent({ kind: 'preset_updated', payload: { name: 'theirs' }, actor: 'key:other', owner: 'key:other' });
    await log.appendEvent({ kind: 'preset_updated', payload: { name: 'mine' }, actor: 'key:new', owner: 'key:root' });
    const seen = records(await owner.until((m) => records(m).length >= 5)).map((m) => JSON.parse(m.data) as EventRecord);
    owner.close();
    expect(seen.map((r) => [r.id, r.kind])).toEqual([[1, 'fly_to'], [2, 'highlight'], [3, 'map_filters_updated'], [4, 'note_added'], [7, 'preset_updated']]);
  });

  it('shows a record stored without an owner to the key that wrote it (its owner unless rotated), never to anonymous', async () => {
    await log.appendEvent({ kind: 'note_added', payload: { body: 'legacy' }, actor: 'key:abc' });
    await start({ viewer: () => null });
    const anon = await openSse(server.port, '/api/events?after=0');
    expect(records(await anon.until((m) => records(m).length >= 3)).map((m) => m.id)).toEqual(['1', '2', '3']);
    await log.appendEvent({ kind: 'fly_to', payload: {}, actor: 'anonymous' });
    expect(records(await anon.until((m) => records(m).length >= 4)).map((m) => m.id)).toEqual(['1', '2', '3', '5']);
    anon.close();
    await server.close();
    await start({ viewer: () => 'key:abc' });
    const writer = await openSse(server.port, '/api/events?after=3');
    expect(records(await writer.until((m) => records(m).length >= 2)).map((m) => m.id)).toEqual(['4', '5']);
    writer.close();
  });

  it('examines at most replayScanMax stored records per connect and announces what it could not reach', async () => {
    for (let i = 0; i < 20; i++) await log.appendEvent({ kind: 'note_added', payload: { i }, actor: 'key:x', owner: 'key:x' });
    await start({ replayScanMax: 10, viewer: () => null });
    const sse = await openSse(server.port, '/api/events?after=0');
    const msgs = await sse.until((m) => m.some((x) => x.event === 'replay_truncated'));
    sse.close();
    expect(records(msgs)).toEqual([]); // records 14..23 are private, 1..3 lie past the scan bound
    expect(JSON.parse(msgs.find((m) => m.event === 'replay_truncated')!.data)).toEqual({ requested_after: 0, oldest_available: null });
  });

  it('bounds replay in bytes as well as records: the newest records within replayMaxBytes, the gap announced', async () => {
    // Issue 13: one anonymous connect replayed 93 MB (1,000 records of large payloads).
    const blob = 'x'.repeat(10_000);
    for (let i = 0; i < 50; i++) await log.appendEvent({ kind: 'highlight', payload: { ids: [`${i}`], blob }, actor: 'a' });
    await start({ replayMaxBytes: 64 * 1024 });
    const sse = await openSse(server.port, '/api/events?after=0');
    const msgs = await sse.until((m) => m.some((x) => x.id === '53'));
    sse.close();
    const replayed = records(msgs);
    const bytes = replayed.reduce((n, m) => n + Buffer.byteLength(`id: ${m.id}\ndata: ${m.data}\n\n`), 0);
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(replayed.length).toBe(6); // each record is ~10.1 kB: six fit in 64 KiB, seven do not
    expect(replayed.map((m) => Number(m.id))).toEqual([48, 49, 50, 51, 52, 53]);
    expect(JSON.parse(msgs.find((m) => m.event === 'replay_truncated')!.data)).toEqual({ requested_after: 0, oldest_available: 48 });
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
