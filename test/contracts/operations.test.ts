// contracts/operations.ts: each operation declared once, with the spec's tools, aliases, scopes, defaults, bounds
// and strictness; every numeric answer carries as_of/model_versions/confidence and valuation payloads a disclosure.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnswerMetaSchema } from '../../src/contracts/common.js';
import * as I from '../../src/contracts/inputs.js';
import { OPERATIONS, operationById, operationForRequest, toolEntries } from '../../src/contracts/operations.js';
import { DISCLOSURE } from '../../src/contracts/valuation.js';
import { queryInput } from '../../src/http/query.js';

const V2_TOOLS = [
  'search_investment_inventory', 'deep_underwrite_asset', 'get_comps', 'get_tract_report', 'market_pulse', 'risk_report', 'save_favorite_property',
  'update_underwriting_preset', 'create_strategy_profile', 'add_note', 'update_map_filters', 'fly_to_location', 'highlight_properties',
];
const REST = [
  'GET /api/health', 'GET /api/tracts/chicago', 'GET /api/listings/chicago', 'GET /api/underwrite', 'GET /api/property', 'POST /api/me/profiles', 'GET /api/events',
  'GET /api/openapi.json', 'GET /mcp/v2/manifest', 'GET /api/mcp-tools', 'GET /api/spec/valuation-contract.json', 'GET /api/spec/scoring-contract.json',
  'GET /api/spec/constants-registry.json', 'GET /api/spec/error-taxonomy.json', 'GET /api/model-registry', 'GET /model', 'GET /api/metrics/scorecard', 'GET /api/admin/analytics',
  // The spec's private endpoints (Authentication 6).
  'GET /api/state', 'GET /api/deals', 'POST /api/run-listings',
  // The open web map (issue 15): its page and its GeoJSON layers.
  'GET /', 'GET /api/geo/tracts', 'GET /api/geo/neighborhoods', 'GET /api/geo/townships',
  // The owner's self-serve keys (spec, Authentication 7; issue 16 item 2).
  'GET /api/me/keys', 'POST /api/me/keys', 'POST /api/me/keys/rotate', 'POST /api/me/keys/revoke', 'GET /api/me/keys/audit', 'GET /keys',
  // The public app's consent-only analytics (issue 16 item 4).
  'POST /api/analytics/events',
];

describe('OPERATIONS', () => {
  it('declares each id, REST route and tool name once', () => {
    const ids = OPERATIONS.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = OPERATIONS.filter((o) => o.rest).map((o) => `${o.rest!.method} ${o.rest!.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect([...routes].sort()).toEqual([...REST].sort());
    const names = toolEntries().map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('serves every v2 tool, and the three aliases as deprecated with their replacement', () => {
    const entries = toolEntries();
    expect(entries.filter((t) => !t.deprecated).map((t) => t.name)).toEqual(V2_TOOLS);
    expect(entries.filter((t) => t.deprecated).map((t) => [t.name, t.replacement])).toEqual([
      ['search_deals', 'search_investment_inventory'],
      ['underwrite', 'deep_underwrite_asset'],
      ['comps', 'get_comps'],
    ]);
  });

  it('gives the spec scopes: underwrite tools need underwrite, write tools write-state, analytics the operator secret', () => {
    const scope = (id: string) => operationById(id)!.scope;
    for (const id of ['deep_underwrite_asset', 'get_comps', 'underwrite']) expect(scope(id)).toBe('underwrite');
    for (const id of ['save_favorite_property', 'update_underwriting_preset', 'create_strategy_profile', 'add_note', 'create_profile_rest']) expect(scope(id)).toBe('write-state');
    for (const id of ['search_investment_inventory', 'get_tract_report', 'market_pulse', 'risk_report', 'health', 'tracts', 'listings']) expect(scope(id)).toBe('read');
    expect(scope('admin_analytics')).toBe('operator');
  });

  it('finds the operation of a request by exact method and path (HEAD as GET)', () => {
    expect(operationForRequest('GET', '/api/health')?.id).toBe('health');
    expect(operationForRequest('HEAD', '/api/health')?.id).toBe('health');
    expect(operationForRequest('POST', '/api/health')).toBeUndefined();
  });
});

describe('tool outputs', () => {
  const numericTools = ['search_investment_inventory', 'search_deals', 'deep_underwrite_asset', 'underwrite', 'get_comps', 'get_tract_report', 'market_pulse', 'risk_report'];
  it.each(numericTools)('%s output requires as_of, model_versions and confidence', (id) => {
    const js = z.toJSONSchema(operationById(id)!.output, { io: 'output', unrepresentable: 'any' }) as { required?: string[] };
    for (const k of Object.keys(AnswerMetaSchema.shape)) expect(js.required).toContain(k);
  });
  it.each(['search_investment_inventory', 'deep_underwrite_asset', 'underwrite', 'get_comps'])('%s output requires the disclosure', (id) => {
    const js = z.toJSONSchema(operationById(id)!.output, { io: 'output', unrepresentable: 'any' }) as { required?: string[]; properties: Record<string, { const?: string }> };
    expect(js.required).toContain('disclosure');
    expect(js.properties.disclosure.const).toBe(DISCLOSURE);
  });
});

describe('tool inputs: defaults and bounds of the spec', () => {
  it('search_investment_inventory defaults metro chicago, strategy brrrr, limit 25 and caps limit at 100', () => {
    expect(I.InventorySearchInputSchema.parse({})).toEqual({ metro: 'chicago', strategy: 'brrrr', limit: 25 });
    expect(I.InventorySearchInputSchema.safeParse({ limit: 100 }).success).toBe(true);
    expect(I.InventorySearchInputSchema.safeParse({ limit: 101 }).success).toBe(false);
    expect(I.InventorySearchInputSchema.safeParse({ min_percentile: 101 }).success).toBe(false);
    expect(I.InventorySearchInputSchema.safeParse({ fields: 'price,zip' }).success).toBe(true);
    expect(I.InventorySearchInputSchema.safeParse({ fields: 'price,owner_ssn' }).success).toBe(false);
    expect(I.InventorySearchInputSchema.safeParse({ bbox: '-87.9,41.6,-87.5,42.1' }).success).toBe(true);
    expect(I.InventorySearchInputSchema.safeParse({ bbox: '-87.5,41.6,-87.9,42.1' }).success).toBe(false);
  });

  it('search_deals defaults limit to 10', () => {
    expect(I.SearchDealsInputSchema.parse({}).limit).toBe(10);
  });

  it('deep_underwrite_asset defaults horizon 5, bounds 1-30, units 1-4, and rejects extra keys', () => {
    const ok = I.DeepUnderwriteInputSchema.parse({ lat: 41.9, lon: -87.7 });
    expect(ok).toMatchObject({ horizon_years: 5, strategy: 'brrrr', metro: 'chicago' });
    expect(I.DeepUnderwriteInputSchema.safeParse({ lat: 41.9, lon: -87.7, horizon_years: 31 }).success).toBe(false);
    expect(I.DeepUnderwriteInputSchema.safeParse({ lat: 41.9, lon: -87.7, units: 5 }).success).toBe(false);
    expect(I.DeepUnderwriteInputSchema.safeParse({ lat: 41.9, lon: -87.7, extra: 1 }).success).toBe(false);
    expect(I.DeepUnderwriteInputSchema.safeParse({ lat: 41.9, lon: -87.7, custom_assumptions: { down_pct: 1.5 } }).success).toBe(false);
    expect(I.DeepUnderwriteInputSchema.safeParse({ lat: 41.9, lon: -87.7, custom_assumptions: { tip: 1 } }).success).toBe(false);
    expect(I.DeepUnderwriteInputSchema.safeParse({ horizon_years: 5 }).success).toBe(false);
  });

  it('underwrite (v1) accepts the spec keys only, with their bounds', () => {
    const base = { lat: 41.9, lon: -87.7 };
    expect(I.UnderwriteAliasInputSchema.safeParse({ ...base, price: 1, units: 4, year_built: 2027, weights: { flip: { margin: 1 } } }).success).toBe(true);
    expect(I.UnderwriteAliasInputSchema.safeParse({ ...base, price: 0 }).success).toBe(false);
    expect(I.UnderwriteAliasInputSchema.safeParse({ ...base, year_built: 1799 }).success).toBe(false);
    expect(I.UnderwriteAliasInputSchema.safeParse({ ...base, rate: 0 }).success).toBe(false);
    expect(I.UnderwriteAliasInputSchema.safeParse({ ...base, weights: { flip: { margin: 2 } } }).success).toBe(false);
    expect(I.UnderwriteAliasInputSchema.safeParse({ ...base, weights: { flip: { speed: 1 } } }).success).toBe(false);
    expect(I.UnderwriteAliasInputSchema.safeParse({ ...base, horizon_years: 5 }).success).toBe(false);
  });

  it('get_tract_report needs an 11-digit geoid; add_note caps the body at 4000 characters', () => {
    expect(I.TractReportInputSchema.safeParse({ geoid: '1703101010' }).success).toBe(false);
    expect(I.NoteInputSchema.safeParse({ body: 'x'.repeat(4000) }).success).toBe(true);
    expect(I.NoteInputSchema.safeParse({ body: 'x'.repeat(4001) }).success).toBe(false);
  });

  it('REST underwrite query: decimal text becomes numbers; blanks, hex, fractions of units and unknown keys are rejected', () => {
    const op = operationById('underwrite_rest')!;
    const parse = (q: Record<string, string>) => op.input.safeParse(queryInput(op, q));
    const q = { lat: '41.9', lon: '-87.7', price: '250000', units: '2' };
    expect(parse(q).data).toEqual({ lat: 41.9, lon: -87.7, price: 250000, units: 2, strategy: 'brrrr' });
    // the optional inputs of the `underwrite` tool: numbers, an enum, and a boolean spelled exactly true/false
    expect(parse({ ...q, rehab: '40000', sqft: '1800', scope: 'gut', mgmt_self: 'true', strategy: 'hold' }).data).toEqual({ lat: 41.9, lon: -87.7, price: 250000, units: 2, rehab: 40000, sqft: 1800, scope: 'gut', mgmt_self: true, strategy: 'hold' });
    for (const bad of [{ units: '2.5' } as Record<string, string>, { price: '0' }, { lon: '' }, { lon: ' ' }, { price: '0x10' }, { price: 'Infinity' }, { debug: '1' }, { rehab: '-1' }, { sqft: '0' }, { mgmt_self: 'yes' }, { mgmt_self: '1' }, { down_pct: '1.5' }, { scope: 'total' }]) {
      expect(parse({ ...q, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(parse({ lat: '41.9', lon: '-87.7' }).success).toBe(false);
  });
});
