// Every REST endpoint of the spec through real HTTP on loopback, checked against its operation's output schema;
// errors in the one error shape (taxonomy code + request id), right statuses, never a stack trace.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationById } from '../../src/contracts/operations.js';
import { ErrorBodySchema } from '../../src/http/errors.js';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, mintKey, OPERATOR_SECRET, startDoors } from '../mcp/support.js';

let service: ServiceHandle;
let writer: string;
let webhooker: string;

beforeAll(async () => {
  service = await startDoors();
  writer = (await mintKey(service, ['read', 'write-state'])).token;
  webhooker = (await mintKey(service, ['write-state', 'webhooks'])).token;
});
afterAll(async () => {
  await service?.close();
});

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(`${service.url}${path}`, init);
  const text = await res.text();
  expect(text).not.toMatch(/\n\s+at /); // no stack trace, whatever the status
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

function expectError(r: { status: number; body: unknown; headers: Headers }, status: number, code: string): void {
  expect(r.status).toBe(status);
  const e = ErrorBodySchema.parse(r.body);
  expect(e.error.code).toBe(code);
  expect(e.error.request_id).toBe(r.headers.get('x-request-id'));
}

const PROFILE = { name: 'Near west BRRRR', strategy: 'brrrr', min_percentile: 70, max_price: 400000, min_confidence: 50, bbox: [-87.8, 41.8, -87.6, 41.95], criteria: { telegram_chat_id: '4242' }, channels: { telegram: true } };

describe('read endpoints answer 200 with their operation output schema', () => {
  it.each([
    ['health', '/api/health'],
    ['tracts', '/api/tracts/chicago'],
    ['listings', '/api/listings/chicago'],
    ['openapi', '/api/openapi.json'],
    ['mcp_manifest', '/mcp/v2/manifest'],
    ['mcp_tools', '/api/mcp-tools'],
    ['spec_valuation_contract', '/api/spec/valuation-contract.json'],
    ['spec_scoring_contract', '/api/spec/scoring-contract.json'],
    ['spec_constants_registry', '/api/spec/constants-registry.json'],
    ['spec_error_taxonomy', '/api/spec/error-taxonomy.json'],
    ['model_registry', '/api/model-registry'],
    ['scorecard', '/api/metrics/scorecard'],
  ])('%s (%s)', async (id, path) => {
    const r = await call(path);
    expect(r.status).toBe(200);
    operationById(id)!.output.parse(r.body);
  });

  it('listings: at most 200 active listings, one per address, deal_score null or a number', async () => {
    // Rows appear once the daily listings run has scored them (src/listings); the door only serves and checks them.
    const body = operationById('listings')!.output.parse((await call('/api/listings/chicago')).body) as { count: number; listings: Array<{ address: string; deal_score: number | null }> };
    expect(body.count).toBe(body.listings.length);
    expect(body.count).toBeLessThanOrEqual(200);
    expect(new Set(body.listings.map((l) => l.address.toLowerCase())).size).toBe(body.count);
  });

  it('the manifest and /api/mcp-tools are the same catalog; aliases carry deprecated and replacement', async () => {
    const a = (await call('/mcp/v2/manifest')).body as { tools: Array<{ name: string; deprecated: boolean; replacement?: string }> };
    expect((await call('/api/mcp-tools')).body).toEqual(a);
    expect(a.tools.find((t) => t.name === 'comps')).toMatchObject({ deprecated: true, replacement: 'get_comps' });
  });

  it('error taxonomy and constants registry are published from their one source', async () => {
    const tax = (await call('/api/spec/error-taxonomy.json')).body as { codes: Array<{ code: string; status: number }> };
    expect(tax.codes).toContainEqual(expect.objectContaining({ code: 'rate_limited', status: 429 }));
    const reg = (await call('/api/spec/constants-registry.json')).body as { groups: Array<{ name: string; owner: string }> };
    expect(reg.groups.map((g) => g.name)).toContain('doors');
  });
});

describe('GET /api/underwrite and /api/property', () => {
  it('underwrite answers one valuation object with its disclosure', async () => {
    const r = await call('/api/underwrite?lat=41.88&lon=-87.7&price=300000&units=2');
    expect(r.status).toBe(200);
    const body = operationById('underwrite_rest')!.output.parse(r.body) as Record<string, unknown> & { disclosure: string };
    expect(body.disclosure).toMatch(/not an appraisal/);
  });

  it('underwrite carries tract, arv_source, comp_arv (only with real comps), risk, underwrite and read', async () => {
    const r = await call('/api/underwrite?lat=41.88&lon=-87.7&price=300000&units=2');
    expect(r.status).toBe(200);
    const body = operationById('underwrite_rest')!.output.parse(r.body) as Record<string, unknown>;
    for (const k of ['tract', 'arv_source', 'risk', 'underwrite', 'read']) expect(body, k).toHaveProperty(k);
    const real = (body.arv_source as string).startsWith('real comps');
    expect('comp_arv' in body).toBe(real);
    if (!real) expect(body.arv_source).toBe('tract heuristic');
    const uw = body.underwrite as Record<string, unknown>;
    for (const k of ['arv', 'max_offer', 'brrrr_offer', 'dscr', 'economics_factor', 'unscored_reason', 'assumptions']) expect(uw, k).toHaveProperty(k);
    if (uw.arv === null) expect([uw.dscr, uw.economics_factor, uw.max_offer, uw.brrrr_offer]).toEqual([null, null, null, null]);
    expect(typeof body.read).toBe('string');
    expect((body.risk as { score: number }).score).toBeGreaterThanOrEqual(0);
  });

  it('underwrite rejects a missing lat, out-of-range units and unknown parameters with 400 validation_failed', async () => {
    expectError(await call('/api/underwrite?lon=-87.7&price=1&units=2'), 400, 'validation_failed');
    expectError(await call('/api/underwrite?lat=41.88&lon=-87.7&price=1&units=5'), 400, 'validation_failed');
    expectError(await call('/api/underwrite?lat=41.88&lon=-87.7&price=1&units=2&debug=1'), 400, 'validation_failed');
  });

  it('property returns the valuation under investor.valuation', async () => {
    const r = await call('/api/property?lat=41.88&lon=-87.7&units=2');
    expect(r.status).toBe(200);
    const body = operationById('property')!.output.parse(r.body) as { investor: { valuation: { disclosure: string } | null } };
    expect(body.investor.valuation?.disclosure).toMatch(/not an appraisal/);
  });

  it('property without units, a listing match or prop_type answers the units_required refusal (200, no valuation)', async () => {
    const r = await call('/api/property?lat=1&lon=1');
    expect(r.status).toBe(200);
    expect(operationById('property')!.output.parse(r.body)).toMatchObject({ investor: { valuation: null }, refusal: { code: 'units_required' } });
  });
});

describe('POST /api/me/profiles', () => {
  const post = (body: unknown, token: string | null, type = 'application/json') =>
    call('/api/me/profiles', { method: 'POST', headers: { 'content-type': type, ...bearer(token) }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('creates a profile with write-state (201) and appends strategy_profile_created to the stream', async () => {
    const r = await post(PROFILE, writer);
    expect(r.status).toBe(201);
    const body = operationById('create_profile_rest')!.output.parse(r.body) as { event_id: number; profile: { id: string } };
    const [events] = (await service.svc.backend!.events.readAfter(body.event_id - 1, 1)) as unknown as Array<{ id: number; kind: string; payload: { id: string } }>;
    expect(events.id).toBe(body.event_id);
    expect(events.kind).toBe('strategy_profile_created');
    expect(events.payload.id).toBe(body.profile.id);
  });

  it('needs a key (401) and, for a webhook channel, the webhooks scope (403)', async () => {
    expectError(await post(PROFILE, null), 401, 'unauthorized');
    const hook = { ...PROFILE, channels: { webhook: { url: 'https://127.0.0.1:9/hook', secret: 's'.repeat(32) } } };
    expectError(await post(hook, writer), 403, 'forbidden_scope');
    const ok = await post(hook, webhooker);
    expect(ok.status).toBe(201);
    expect(JSON.stringify(ok.body)).not.toContain('s'.repeat(32));
  });

  it('rejects extra keys (400), non-JSON bodies (415) and malformed JSON (400)', async () => {
    expectError(await post({ ...PROFILE, owner: 'x' }, writer), 400, 'validation_failed');
    expectError(await post('name=x', writer, 'text/plain'), 415, 'unsupported_media_type');
    expectError(await post('{"name":', writer), 400, 'validation_failed');
  });
});

describe('GET /api/admin/analytics', () => {
  it('needs the operator secret (401), bounds days (400) and returns the aggregates', async () => {
    expectError(await call('/api/admin/analytics?days=7'), 401, 'unauthorized');
    expectError(await call('/api/admin/analytics?days=7', { headers: bearer(writer) }), 401, 'unauthorized');
    expectError(await call('/api/admin/analytics?days=0', { headers: bearer(OPERATOR_SECRET) }), 400, 'validation_failed');
    const r = await call('/api/admin/analytics?days=7', { headers: bearer(OPERATOR_SECRET) });
    expect(r.status).toBe(200);
    const body = operationById('admin_analytics')!.output.parse(r.body) as { total_calls: number; days: number };
    expect(body.days).toBe(7);
    expect(body.total_calls).toBeGreaterThan(0);
  });
});

describe('GET /api/events', () => {
  it('streams a write to its owner\'s key as an SSE record with its id', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${service.url}/api/events`, { signal: ctrl.signal, headers: bearer(writer) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    await call('/api/me/profiles', { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(writer) }, body: JSON.stringify({ ...PROFILE, name: 'streamed' }) });
    let text = '';
    while (!/"name":"streamed"/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/id: \d+\ndata: \{.*"kind":"strategy_profile_created"/);
    ctrl.abort();
  });

  it('refuses a foreign Host or Origin with 403 forbidden_host (DNS rebinding)', async () => {
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${service.url}/api/events`, { headers }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c)).on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject).end();
      });
    const evil = await raw({ host: 'evil.example:80' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.code).toBe('forbidden_host');
    expect((await raw({ origin: 'https://evil.example' })).status).toBe(403);
  });
});

describe('errors', () => {
  it('unknown path 404 not_found, wrong method 405, strict query 400', async () => {
    expectError(await call('/api/nothing-here'), 404, 'not_found');
    expectError(await call('/api/health', { method: 'POST' }), 405, 'method_not_allowed');
    const trace = await new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
      request(`${service.url}/api/health`, { method: 'TRACE' }, (res) => {
        res.resume().on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow }));
      }).on('error', reject).end();
    });
    expect(trace).toEqual({ status: 405, allow: 'GET, HEAD' });
    expectError(await call('/api/tracts/chicago?limit=5'), 400, 'validation_failed');
  });
});
