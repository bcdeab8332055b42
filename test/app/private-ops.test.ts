// The private endpoints over real HTTP (issue 13): GET /api/state and GET /api/deals answer the caller's own state only,
// POST /api/run-listings runs the listings job on demand for the operator; every one needs a credential (401 without).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationById } from '../../src/contracts/operations.js';
import { ErrorBodySchema } from '../../src/http/errors.js';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, mcpClient, mintKey, OPERATOR_SECRET, startDoors } from '../mcp/support.js';
import { onOneUtcDay, today } from '../support/utc-day.js';

type Json = Record<string, any>; // parsed bodies
let service: ServiceHandle;
let keyA: { id: string; token: string };
let keyB: { id: string; token: string };
let clientA: Client;
let clientB: Client;

beforeAll(async () => {
  service = await startDoors();
  keyA = await mintKey(service, ['read', 'write-state', 'webhooks'], 100_000);
  keyB = await mintKey(service, ['read', 'write-state'], 100_000);
  clientA = await mcpClient(service, bearer(keyA.token));
  clientB = await mcpClient(service, bearer(keyB.token));
});
afterAll(async () => {
  await Promise.all([clientA, clientB].map((c) => c?.close()));
  await service?.close();
});

async function get(path: string, token: string | null): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${service.url}${path}`, { headers: bearer(token) });
  return { status: res.status, body: (await res.json()) as Json };
}
async function tool(c: Client, name: string, args: Json): Promise<Json> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, `${name} ${JSON.stringify(r.content)}`).toBeFalsy();
  return r.structuredContent as Json;
}
/** Every item of the caller's state, following next_cursor to the end. */
async function allState(token: string, query = ''): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  do {
    const r = await get(`/api/state?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const page = operationById('state')!.output.parse(r.body) as { items: Json[]; next_cursor: string | null };
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}
const PROFILE = { id: 'shared-id', name: 'A west side', strategy: 'brrrr', min_percentile: 70, max_price: 400000, min_confidence: 50, bbox: [-87.8, 41.8, -87.6, 41.95], criteria: { telegram_chat_id: '4242' }, channels: { telegram: true } };

describe('the private endpoints need a credential', () => {
  it('GET /api/state and GET /api/deals answer 401 unauthorized without a key (spec, Authentication 6)', async () => {
    for (const path of ['/api/state', '/api/deals']) {
      const r = await get(path, null);
      expect(r.status, path).toBe(401);
      expect(ErrorBodySchema.parse(r.body).error.code).toBe('unauthorized');
    }
  });

  it('POST /api/run-listings answers 401 without the operator secret, a key included', async () => {
    for (const token of [null, keyA.token]) {
      const res = await fetch(`${service.url}/api/run-listings`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: '{}' });
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('unauthorized');
    }
  });
});

describe('GET /api/state', () => {
  it('two owners writing the same favorite property, preset id and profile id each read back their own records', async () => {
    await tool(clientA, 'save_favorite_property', { property_id: 'LST-SHARED', payload: { owner: 'A' } });
    await tool(clientB, 'save_favorite_property', { property_id: 'LST-SHARED', payload: { owner: 'B' } });
    await tool(clientA, 'update_underwriting_preset', { id: 'base', name: 'A base', assumptions: { rate: 7 } });
    await tool(clientB, 'update_underwriting_preset', { id: 'base', name: 'B base', assumptions: { rate: 9 } });
    await tool(clientA, 'create_strategy_profile', PROFILE);
    await tool(clientB, 'create_strategy_profile', { ...PROFILE, name: 'B west side' });
    await tool(clientA, 'add_note', { property_id: 'LST-SHARED', body: 'A private note' });
    const a = await allState(keyA.token);
    const b = await allState(keyB.token);
    const pick = (items: Json[], kind: string) => items.filter((i) => i.kind === kind).map((i) => i.record);
    expect(pick(a, 'favorite').map((r) => r.payload)).toEqual([{ owner: 'A' }]);
    expect(pick(b, 'favorite').map((r) => r.payload)).toEqual([{ owner: 'B' }]);
    expect(pick(a, 'preset').map((r) => r.name)).toEqual(['A base']);
    expect(pick(b, 'preset').map((r) => r.name)).toEqual(['B base']);
    expect(pick(a, 'profile').map((r) => r.name)).toEqual(['A west side']);
    expect(pick(b, 'profile').map((r) => r.name)).toEqual(['B west side']);
    expect(pick(a, 'note').map((r) => r.body)).toEqual(['A private note']);
    expect(JSON.stringify(b)).not.toContain('A private note');
  });

  it('pages newest first with a cursor, filters by kind, and refuses a forged cursor with 400 invalid_cursor', async () => {
    const key = await mintKey(service, ['write-state'], 100_000);
    const c = await mcpClient(service, bearer(key.token));
    for (let i = 0; i < 5; i++) await tool(c, 'add_note', { body: `n${i}` });
    await tool(c, 'save_favorite_property', { property_id: 'LST-P' });
    await c.close();
    const first = await get('/api/state?limit=2', key.token);
    expect(first.body.items.map((i: Json) => i.kind)).toEqual(['favorite', 'note']);
    expect(first.body.items[1].record.body).toBe('n4');
    const notes = await allState(key.token, '&kind=note');
    expect(notes.map((i) => i.record.body)).toEqual(['n4', 'n3', 'n2', 'n1', 'n0']);
    const bad = await get('/api/state?cursor=not-a-cursor', key.token);
    expect(bad.status).toBe(400);
    expect(ErrorBodySchema.parse(bad.body).error.code).toBe('invalid_cursor');
    expect((await get('/api/state?limit=0', key.token)).status).toBe(400);
    expect((await get('/api/state?kind=keys', key.token)).status).toBe(400);
  });

  it('keeps an owner\'s state across a key rotation', async () => {
    const key = await mintKey(service, ['write-state'], 100_000);
    const c = await mcpClient(service, bearer(key.token));
    await tool(c, 'add_note', { body: 'before rotation' });
    await c.close();
    const rotated = await service.svc.backend!.keys.rotateKey(key.id);
    expect((await allState(rotated.plaintext)).map((i) => i.record.body)).toEqual(['before rotation']);
  });
});

describe('GET /api/events (the public stream)', () => {
  it('replays no owner\'s notes, favorites, presets or profiles to an anonymous caller, only map-control records', async () => {
    await tool(clientA, 'add_note', { body: 'secret plan' });
    await tool(clientA, 'fly_to_location', { lat: 41.88, lon: -87.63, zoom: 12 });
    const text = await streamText('/api/events?after=0', null, /"kind":"fly_to"/);
    expect(text).not.toMatch(/"kind":"(note_added|favorite_saved|preset_updated|strategy_profile_created)"/);
    expect(text).not.toContain('secret plan');
  });

  it('replays to a key its own private records and no other owner\'s', async () => {
    await tool(clientB, 'add_note', { body: 'B only' });
    await tool(clientA, 'fly_to_location', { lat: 41.9, lon: -87.6 });
    const text = await streamText('/api/events?after=0', keyB.token, /"lat":41.9/);
    expect(text).toContain('B only');
    expect(text).not.toContain('A private note');
    expect(text).not.toContain('secret plan');
  });
});

/** Reads an SSE stream until `until` matches (then aborts). */
async function streamText(path: string, token: string | null, until: RegExp): Promise<string> {
  const ctrl = new AbortController();
  const res = await fetch(`${service.url}${path}`, { headers: bearer(token), signal: ctrl.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  while (!until.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  ctrl.abort();
  return text;
}

describe('POST /api/run-listings and GET /api/deals', () => {
  it('runs the listings job for the operator, then values each saved deal from its scored listing row or the engine', async () => {
    const runListingsNow = () => fetch(`${service.url}/api/run-listings`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(OPERATOR_SECRET) }, body: '{}' });
    let runDay = today(); // valuations are as of today's UTC date: the row and the engine's answer must share it
    const run = await runListingsNow();
    expect(run.status, await run.clone().text()).toBe(200); // the body names the cause when it is not (one 500 seen once on the PostgreSQL lane, not reproduced)
    const documented = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as Json;
    expect(Object.keys(documented.paths['/api/run-listings'].post.responses)).toContain('200'); // was 201 only (Schemathesis ST103)
    const summary = operationById('run_listings')!.output.parse(await run.json()) as Json;
    expect(summary.last_run.kind).toBe('manual');
    expect(summary.active).toBeGreaterThan(0);

    let listing = (service.svc.store.getListings() as Json[]).find((l) => l.status === 'active')!;
    const key = await mintKey(service, ['write-state'], 100_000);
    const c = await mcpClient(service, bearer(key.token));
    await tool(c, 'save_favorite_property', { property_id: listing.listing_id, payload: { why: 'listed' } });
    await tool(c, 'save_favorite_property', { address: listing.address });
    await tool(c, 'save_favorite_property', { property_id: 'NO-SUCH-PROPERTY' });
    await c.close();

    // The row and the engine's answer of one UTC day: a midnight since the run, and the run is made again.
    const r = await onOneUtcDay(async (day) => {
      if (day !== runDay) {
        expect((await runListingsNow()).status).toBe(200);
        runDay = day;
        listing = (service.svc.store.getListings() as Json[]).find((l) => l.listing_id === listing.listing_id)!;
      }
      return get('/api/deals', key.token);
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const deals = operationById('deals')!.output.parse(r.body) as { items: Json[]; disclosure: string };
    expect(deals.disclosure).toMatch(/not an appraisal/);
    expect(deals.items.map((d) => d.favorite.id)).toEqual(['p:NO-SUCH-PROPERTY', `a:${listing.address.toLowerCase()}`, `p:${listing.listing_id}`]);
    const [missing, byAddress, byListing] = deals.items;
    expect(byListing).toMatchObject({ source: 'listing_row', listing_id: listing.listing_id, model_version: listing.model_version, deal_score: listing.deal_score });
    expect(byListing.strategy_scores).toEqual(listing.point_actionable ? listing.percentiles : null);
    expect(byListing.valuation.arv_method).toBe(listing.valuation.arv_method);
    expect(byAddress.source).toBe('engine');
    expect(byAddress.model_version).toBe(listing.model_version);
    // The same house by its address is valued by the engine to the same evidence the listing run scored (one answer).
    expect(byAddress.valuation.inputs_hash).toBe(byListing.valuation.inputs_hash);
    expect(missing).toMatchObject({ source: 'error', valuation: null, error: { code: 'property_not_found' } });

    const other = await get('/api/deals', keyB.token);
    expect(other.body.items.map((d: Json) => d.favorite.property_id)).toEqual(['LST-SHARED']);
  });
});
