// Every MCP tool and deprecated alias, called with the official SDK Client over streamable HTTP on loopback:
// list, call, check structuredContent against the operation's output schema; failures are isError results.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationById, toolEntries } from '../../src/contracts/operations.js';
import type { ServiceHandle } from '../../src/server.js';
import { DOORS } from '../../src/registry/groups/doors.js';
import { bearer, mcpClient, mintKey, startDoors } from './support.js';

let service: ServiceHandle;
let full: Client;
let anon: Client;
let readOnly: Client;
let geoid: string;

beforeAll(async () => {
  service = await startDoors();
  full = await mcpClient(service, bearer((await mintKey(service, ['read', 'underwrite', 'write-state', 'webhooks'])).token));
  anon = await mcpClient(service);
  readOnly = await mcpClient(service, bearer((await mintKey(service, ['read'])).token));
  geoid = service.svc.store.tractList().tracts[0].geoid;
});
afterAll(async () => {
  await Promise.all([full, anon, readOnly].map((c) => c?.close()));
  await service?.close();
});

type Result = { isError?: boolean; structuredContent?: unknown; content: Array<{ type: string; text?: string }> };
const callTool = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as Result;
const errorCode = (r: Result): string => {
  expect(r.isError).toBe(true);
  const text = r.content[0]?.text ?? '';
  return text.startsWith('{') ? (JSON.parse(text) as { error: { code: string } }).error.code : text;
};

function expectAnswer(r: Result, tool: string): Record<string, unknown> {
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  const op = toolEntries().find((t) => t.name === tool)!.op;
  return op.output.parse(r.structuredContent) as Record<string, unknown>;
}

describe('tools/list', () => {
  it('lists every v2 tool and alias with JSON Schema input and output, matching the snapshot', async () => {
    const { tools } = await full.listTools();
    expect(tools.map((t) => t.name)).toEqual(toolEntries().map((t) => t.name));
    for (const t of tools) expect(t.outputSchema?.type).toBe('object');
    const deep = tools.find((t) => t.name === 'deep_underwrite_asset')!;
    expect(deep.inputSchema.additionalProperties).toBe(false);
    await expect(JSON.stringify(tools, null, 2)).toMatchFileSnapshot('__snapshots__/tools-list.json');
  });
});

describe('read tools', () => {
  it('search_investment_inventory and search_deals answer (empty until the listings run scores inventory)', async () => {
    const inv = expectAnswer(await callTool(full, 'search_investment_inventory', { strategy: 'flip', limit: 5, fields: 'listing_id,price' }), 'search_investment_inventory');
    expect(inv).toMatchObject({ strategy: 'flip', next_cursor: null });
    expect(inv.model_versions).toBeDefined();
    const deals = expectAnswer(await callTool(anon, 'search_deals', {}), 'search_deals');
    // Its top tracts are market_pulse's ranking for the same strategy (the store's bare tract list has no scores).
    const pulse = expectAnswer(await callTool(anon, 'market_pulse', {}), 'market_pulse');
    const ranked = (pulse.top_tracts as Record<string, Array<{ geoid: string; muni: string | null; score: number }>>)[deals.strategy as string];
    expect(deals.top_tracts).not.toEqual([]);
    expect(deals.top_tracts).toEqual(ranked.slice(0, DOORS.v.top_tracts_count).map(({ geoid, muni, score }) => ({ geoid, muni, score })));
    expect(errorCode(await callTool(full, 'search_investment_inventory', { cursor: '%%%' }))).toBe('invalid_cursor');
  });

  it('get_tract_report answers a mapped tract and refuses an unknown one with tract_not_found', async () => {
    const r = expectAnswer(await callTool(anon, 'get_tract_report', { geoid }), 'get_tract_report');
    expect((r.tract as { geoid: string }).geoid).toBe(geoid);
    expect(errorCode(await callTool(anon, 'get_tract_report', { geoid: '17031999999' }))).toBe('tract_not_found');
    expect(errorCode(await callTool(anon, 'get_tract_report', { geoid: 'abc' }))).toBe('validation_failed');
  });

  it('market_pulse answers top tracts per strategy with vintages', async () => {
    const r = expectAnswer(await callTool(anon, 'market_pulse', {}), 'market_pulse');
    expect(Object.keys(r.top_tracts as object).sort()).toEqual(['brrrr', 'flip', 'hold', 'house_hack']);
    expect(r.vintages).toBeDefined();
  });

  it('risk_report answers a 0-100 score, band and reasoned flags with as_of, model_versions and confidence', async () => {
    const r = expectAnswer(await callTool(anon, 'risk_report', { lat: 41.88, lon: -87.7, listing_units: 2 }), 'risk_report');
    expect(typeof r.as_of).toBe('string');
    expect(r.model_versions).toBeDefined();
    expect('confidence' in r).toBe(true);
    expect(r.risk_score as number).toBeGreaterThanOrEqual(0);
    expect(r.risk_score as number).toBeLessThanOrEqual(100);
    expect(['low', 'moderate', 'high', 'severe']).toContain(r.band);
    const flags = r.flags as Array<{ flag: string; reason: string }>;
    expect(flags.length).toBeGreaterThan(0);
    for (const f of flags) expect(f.reason.length).toBeGreaterThan(0);
  });
});

describe('underwrite tools', () => {
  it('get_comps and its alias comps return the valuation evidence with disclosure', async () => {
    for (const name of ['get_comps', 'comps']) {
      const r = expectAnswer(await callTool(full, name, { lat: 41.88, lon: -87.7 }), name);
      expect(r.disclosure).toMatch(/not an appraisal/);
      expect(Array.isArray(r.comps_used)).toBe(true);
    }
  });

  it('deep_underwrite_asset and underwrite answer units_required as a refusal, not an error', async () => {
    const deep = expectAnswer(await callTool(full, 'deep_underwrite_asset', { lat: 1, lon: 1 }), 'deep_underwrite_asset');
    expect(deep).toMatchObject({ refusal: { code: 'units_required' }, valuation: null, dscr: null, cashflow_projection: null });
    const v1 = expectAnswer(await callTool(full, 'underwrite', { lat: 1, lon: 1, price: 200000, rehab: 10000 }), 'underwrite');
    expect(v1).toMatchObject({ refusal: { code: 'units_required' }, assumptions: { price: 200000, rehab: 10000 } });
  });

  it('with units known, deep_underwrite_asset and underwrite answer the valuation with point-only economics', async () => {
    const deep = expectAnswer(await callTool(full, 'deep_underwrite_asset', { lat: 41.88, lon: -87.7, units: 2, custom_assumptions: { rate: 7.5 } }), 'deep_underwrite_asset');
    const v1 = expectAnswer(await callTool(full, 'underwrite', { lat: 41.88, lon: -87.7, units: 2, price: 250000, rehab: 20000 }), 'underwrite');
    for (const r of [deep, v1]) {
      expect(r.disclosure).toMatch(/not an appraisal/);
      expect(typeof r.as_of).toBe('string');
      expect(r.model_versions).toBeDefined();
      expect(r.valuation).not.toBeNull();
      expect(r.strategy).toBe('brrrr');
      const point = (r.valuation as { display?: { outcome?: string } }).display?.outcome === 'point';
      // Not a point, or a point whose chosen pro-forma is unscored: no DSCR, returns or cashflow, and a reason says why.
      if (!point || r.unscored_reason !== null) {
        expect(r.unscored_reason).not.toBeNull();
        expect(r.dscr).toBeNull();
        expect(r.returns).toBeNull();
        expect(r.cashflow_projection).toBeNull();
      }
      if (!point) expect([r.offers, r.strategy_scores]).toEqual([null, null]);
    }
    // Accepted inputs are echoed beside the underwriting's resolved assumptions.
    expect(deep.assumptions).toMatchObject({ units: 2, custom_assumptions: { rate: 7.5 }, caller_supplied: ['rate'] });
    expect(v1.assumptions).toMatchObject({ price: 250000, rehab: 20000, units: 2 });
  });

  it('rejects extra keys and out-of-range values on the strict tools', async () => {
    expect(errorCode(await callTool(full, 'deep_underwrite_asset', { lat: 41.88, lon: -87.7, units: 2, extra: true }))).toBe('validation_failed');
    expect(errorCode(await callTool(full, 'underwrite', { lat: 41.88, lon: -87.7, units: 5 }))).toBe('validation_failed');
  });

  it('needs the underwrite scope: anonymous gets HTTP 401, a read-only key HTTP 403 (a Bearer challenge, issue 16)', async () => {
    await expect(callTool(anon, 'get_comps', { lat: 41.88, lon: -87.7 })).rejects.toThrow(/"code":"unauthorized"/);
    await expect(callTool(readOnly, 'deep_underwrite_asset', { lat: 41.88, lon: -87.7 })).rejects.toThrow(/"code":"forbidden_scope"/);
  });
});

describe('write and UI-controller tools', () => {
  it.each([
    ['save_favorite_property', { property_id: 'LST-1', payload: { why: 'corner lot' } }],
    ['update_underwriting_preset', { name: 'conservative', assumptions: { down_pct: 0.25 } }],
    ['add_note', { property_id: 'LST-1', body: 'roof looks new' }],
    ['create_strategy_profile', { name: 'p', strategy: 'flip', min_percentile: 80, max_price: 300000, min_confidence: 40, bbox: [-87.8, 41.8, -87.6, 41.9], criteria: { telegram_chat_id: '4242' }, channels: { telegram: true } }],
    ['update_map_filters', { strategy: 'hold', min_percentile: 50, statuses: ['active'] }],
    ['fly_to_location', { lat: 41.88, lon: -87.63, zoom: 14 }],
    ['highlight_properties', { ids: ['LST-1', 'LST-2'] }],
  ])('%s is acknowledged once durable', async (name, args) => {
    expectAnswer(await callTool(full, name, args), name);
  });

  it('write tools need write-state; UI-controller tools are open', async () => {
    await expect(callTool(anon, 'add_note', { body: 'x' })).rejects.toThrow(/"code":"unauthorized"/);
    await expect(callTool(readOnly, 'save_favorite_property', { property_id: 'x' })).rejects.toThrow(/"code":"forbidden_scope"/);
    expectAnswer(await callTool(anon, 'highlight_properties', { ids: ['a'] }), 'highlight_properties');
    expect(errorCode(await callTool(full, 'add_note', { body: 'x'.repeat(4001) }))).toBe('validation_failed');
  });

  it('every v2 tool and alias has been called above', () => {
    const called = new Set(['search_investment_inventory', 'search_deals', 'get_tract_report', 'market_pulse', 'risk_report', 'get_comps', 'comps', 'deep_underwrite_asset', 'underwrite',
      'save_favorite_property', 'update_underwriting_preset', 'add_note', 'create_strategy_profile', 'update_map_filters', 'fly_to_location', 'highlight_properties']);
    expect(toolEntries().map((t) => t.name).filter((n) => !called.has(n))).toEqual([]);
    expect(operationById('get_comps')!.tool!.aliases).toHaveLength(1);
  });
});
