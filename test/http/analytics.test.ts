// POST /api/analytics/events (issue 16 item 4) through the real service: DNT / GPC answer 204 without reading the body
// and store nothing; a body without analytics-v1 consent or outside the closed taxonomy is refused 400 and stores
// nothing; accepted events are what GET /api/admin/analytics counts. Every "nothing stored" is a count before and after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationById } from '../../src/contracts/operations.js';
import { createLimiter } from '../../src/auth/limiter.js';
import { ErrorBodySchema } from '../../src/http/errors.js';
import { DB_NAMES, openSubDb } from '../../src/store/env.js';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, OPERATOR_SECRET, startDoors } from '../mcp/support.js';
import { rawRequest } from './middleware/support.js';

const PATH = '/api/analytics/events';
let service: ServiceHandle;
beforeAll(async () => {
  service = await startDoors();
});
afterAll(async () => {
  await service?.close();
});

// The service's own handle (opened once, as every service path opens a sub-database): env.openDB on every call began a
// synchronous write transaction each time, and one of them deadlocked against an async write batch of lmdb-js waiting
// for this thread (main thread parked in mdb_txn_begin, the writer in WaitForCallbacks; seen once, 2026-12-06).
const stored = (): number => openSubDb(service.svc.store.env, DB_NAMES.appAnalytics).getKeysCount();
const event = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ consent: 'analytics-v1', session: 'tab_Session-01', kind: 'page_view', page: 'map', ...extra });

async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(`${service.url}${PATH}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

/** Two UTC days: a before/after pair a midnight separates still counts every event of this file (all minutes old). */
async function funnel(days = 2): Promise<{ app: { events: number; sessions: number; by_kind: Record<string, number>; funnel: Array<{ step: string; sessions: number }>; valuation_outcomes: Record<string, number> } }> {
  const res = await fetch(`${service.url}/api/admin/analytics?days=${days}`, { headers: bearer(OPERATOR_SECRET) });
  expect(res.status).toBe(200);
  return operationById('admin_analytics')!.output.parse(await res.json()) as never;
}

function expectRefused(r: { status: number; text: string }, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(ErrorBodySchema.parse(JSON.parse(r.text)).error.code).toBe(code);
}

describe('Do-Not-Track and Global Privacy Control', () => {
  it.each([['DNT', '1'], ['Sec-GPC', '1']])('%s: %s answers 204 and stores nothing, even for a valid consented event', async (name, value) => {
    const before = stored();
    const r = await post(event(), { [name]: value });
    expect(r).toEqual({ status: 204, text: '' });
    expect(stored()).toBe(before);
  });

  it('never reads the body: a body that never arrives, not JSON or over the size cap still gets 204 at once', async () => {
    const before = stored();
    // Content-Length promises 64 bytes that never come: a door that read the body would wait for the request timeout (20 s).
    const t0 = Date.now();
    const pending = await rawRequest(service.port, { method: 'POST', path: PATH, headers: [['DNT', '1'], ['Content-Type', 'application/json'], ['Content-Length', '64']] });
    expect(pending.status).toBe(204);
    expect(Date.now() - t0).toBeLessThan(5_000);
    // without the signal the same request is read and refused: the timing above is the opt-out's, not a fast failure
    expect((await post('{not json', { 'Sec-GPC': '1' })).status).toBe(204);
    expect((await post('{not json')).status).toBe(400);
    const huge = await rawRequest(service.port, { method: 'POST', path: PATH, headers: [['Sec-GPC', '1'], ['Content-Type', 'text/plain'], ['Content-Length', String(5 * 1024 * 1024)]] });
    expect(huge.status).toBe(204);
    expect(stored()).toBe(before);
  });

  it('DNT: 0 and Sec-GPC: 0 are not opt-outs: the event is stored', async () => {
    const before = stored();
    expect((await post(event(), { DNT: '0', 'Sec-GPC': '0' })).status).toBe(204);
    expect(stored()).toBe(before + 1);
  });
});

describe('consent and the closed taxonomy', () => {
  it('without analytics-v1 consent: 400 validation_failed and nothing stored', async () => {
    const before = stored();
    const { consent: _omit, ...noConsent } = event();
    for (const body of [noConsent, event({ consent: 'analytics-v2' }), event({ consent: true }), event({ consent: '' })]) expectRefused(await post(body), 400, 'validation_failed');
    expect(stored()).toBe(before);
  });

  it('refuses anything outside the taxonomy with 400 validation_failed and stores nothing', async () => {
    const before = stored();
    const outside = [
      event({ kind: 'click' }), // unknown kind
      event({ note: 'free text' }), // extra key
      event({ lat: 41.881832, lon: -87.623177 }), // coordinates
      event({ geoid: '17031010100' }), // not even a tract is taken
      event({ page: 'https://example.com/?q=1' }), // page outside the closed list
      event({ kind: 'valuation_opened', outcome: 'great deal' }),
      { ...event({ kind: 'valuation_opened', outcome: 'point' }), page: undefined, address: '123 Main St' },
      event({ kind: 'tool_used', page: undefined, tool: 'drop_tables' }),
      event({ kind: 'map_filter_changed', page: undefined, filter: 'strategy', value: 'flip' }),
      event({ session: 'short' }), // < 8 chars
      event({ session: 'x'.repeat(33) }), // > 32 chars
      event({ session: 'has space 1234' }),
      event({ session: 'sk_live_🔑🔑🔑🔑' }),
      [event()], // an array, not one event
    ];
    for (const body of outside) expectRefused(await post(JSON.parse(JSON.stringify(body))), 400, 'validation_failed');
    expectRefused(await post('x'.repeat(1_048_577)), 413, 'payload_too_large');
    expect(stored()).toBe(before);
  });

  it('is served in one spelling only: a trailing slash or other case is 404 and stores nothing', async () => {
    const before = stored();
    for (const path of ['/api/analytics/events/', '/API/analytics/events', '/api/Analytics/Events', '//api/analytics/events']) {
      const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(event()) });
      expect(res.status, path).toBe(404);
      expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('not_found');
    }
    expect(stored()).toBe(before);
  });
});

describe('GET /api/admin/analytics counts the accepted events', () => {
  it('per kind, per day, distinct tab sessions and the funnel page_view → valuation_opened → tool_used', async () => {
    const was = (await funnel()).app;
    const a = 'sessionAAA01';
    const b = 'sessionBBB02';
    const c = 'sessionCCC03';
    const accepted = [
      event({ session: a }), event({ session: b }), event({ session: c }),
      event({ session: a, kind: 'valuation_opened', page: undefined, outcome: 'range' }),
      event({ session: b, kind: 'valuation_opened', page: undefined, outcome: 'suppressed' }),
      event({ session: a, kind: 'tool_used', page: undefined, tool: 'get_comps' }),
      event({ session: c, kind: 'tool_used', page: undefined, tool: 'get_comps' }), // skipped valuation_opened: not in step 3
      event({ session: c, kind: 'map_filter_changed', page: undefined, filter: 'strategy' }),
    ];
    for (const e of accepted) expect((await post(JSON.parse(JSON.stringify(e)))).status).toBe(204);
    await post(event({ session: 'sessionDNT04' }), { DNT: '1' }); // not counted
    const now = (await funnel()).app;
    expect(now.events - was.events).toBe(8);
    expect(now.sessions - was.sessions).toBe(3);
    expect(now.by_kind.page_view - was.by_kind.page_view).toBe(3);
    expect(now.by_kind.valuation_opened - was.by_kind.valuation_opened).toBe(2);
    expect(now.by_kind.tool_used - was.by_kind.tool_used).toBe(2);
    expect(now.by_kind.map_filter_changed - was.by_kind.map_filter_changed).toBe(1);
    const step = (f: typeof now, s: string): number => f.funnel.find((x) => x.step === s)!.sessions;
    expect([step(now, 'page_view') - step(was, 'page_view'), step(now, 'valuation_opened') - step(was, 'valuation_opened'), step(now, 'tool_used') - step(was, 'tool_used')]).toEqual([3, 2, 1]);
    expect(now.valuation_outcomes.range - was.valuation_outcomes.range).toBe(1);
  });

  it('days outside 1..retention (366) is 400 validation_failed; without the operator secret 401', async () => {
    for (const d of ['0', '367', '-1', '1.5', 'x']) {
      const res = await fetch(`${service.url}/api/admin/analytics?days=${d}`, { headers: bearer(OPERATOR_SECRET) });
      expect(res.status, d).toBe(400);
    }
    expect((await fetch(`${service.url}/api/admin/analytics?days=366`, { headers: bearer(OPERATOR_SECRET) })).status).toBe(200);
    expect((await fetch(`${service.url}/api/admin/analytics?days=1`)).status).toBe(401);
  });
});

describe('rate limit', () => {
  it('spends the anonymous quota like any anonymous call: 429 past it, with or without DNT', async () => {
    const limited = await startDoors({ limiter: createLimiter({ anonLimit: 2 }) });
    try {
      const send = (headers: Record<string, string> = {}): Promise<Response> => fetch(`${limited.url}${PATH}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(event()) });
      expect((await send()).status).toBe(204);
      expect((await send({ DNT: '1' })).status).toBe(204);
      const third = await send();
      expect(third.status).toBe(429);
      expect(ErrorBodySchema.parse(await third.json()).error.code).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});
