// Every operation of the service, declared once: REST method and path, MCP tool name (v2) and deprecated alias,
// scope, zod input and output. The OpenAPI document, the MCP tool list, the manifest and the REST routes are generated
// from OPERATIONS; what each operation does is the application layer's (src/app/operations.ts), one function per id.
import { z } from 'zod';
import type { OpScope } from './auth.js';
import { HealthSchema } from './health.js';
import * as I from './inputs.js';
import { UiAckSchema, WriteAckSchema } from './common.js';
import { DealsOutputSchema, DealsQuerySchema, RunListingsOutputSchema, StateOutputSchema, StateQuerySchema } from './private.js';
import { TractListSchema } from './tracts.js';
import * as K from './my-keys.js';
import { AnalyticsEventAckSchema, AnalyticsEventInputSchema } from './analytics.js';
import { NeighborhoodShapesSchema, TownshipShapesSchema, TractShapesSchema } from './geo.js';
import * as O from './tools.js';

export type { OpScope } from './auth.js';
/** `status`: the success status the REST door sends and OpenAPI documents (201 for a POST that creates, 204 for one that answers nothing, 200 otherwise). */
/** `produces`: json (default), sse (an event stream, its own route) or html (a page, REST only). */
export type RestBinding = { method: 'GET' | 'POST'; path: string; from: 'query' | 'body'; status: 200 | 201 | 204; produces?: 'json' | 'sse' | 'html' };
export type ToolBinding = { name: string; replacement?: string; aliases?: ReadonlyArray<{ name: string; replacement: string }> };

export type Operation = {
  id: string;
  summary: string;
  scope: OpScope;
  rest?: RestBinding;
  tool?: ToolBinding;
  input: z.ZodType;
  output: z.ZodType;
};

const get = (path: string, produces: 'json' | 'sse' | 'html' = 'json'): RestBinding => ({ method: 'GET', path, from: 'query', status: 200, produces });
const post = (path: string, status: 200 | 201 | 204 = 201): RestBinding => ({ method: 'POST', path, from: 'body', status });

export const OPERATIONS: readonly Operation[] = [
  { id: 'health', summary: 'Liveness, storage bindings, last listings run, stale model rows', scope: 'read', rest: get('/api/health'), input: I.EmptyInputSchema, output: HealthSchema },
  { id: 'tracts', summary: 'Every mapped Cook and Lake tract with its location signals (cached 1 hour)', scope: 'read', rest: get('/api/tracts/chicago'), input: I.EmptyInputSchema, output: TractListSchema },
  { id: 'listings', summary: 'Up to 200 active listings, deduped by address', scope: 'read', rest: get('/api/listings/chicago'), input: I.EmptyInputSchema, output: O.ListingsOutputSchema },
  { id: 'underwrite_rest', summary: 'One valuation object with tract, arv_source, comp_arv, risk, underwrite and read', scope: 'read', rest: get('/api/underwrite'), input: I.UnderwriteQuerySchema, output: O.UnderwriteRestOutputSchema },
  { id: 'property', summary: 'Property data with the valuation under investor.*', scope: 'read', rest: get('/api/property'), input: I.PropertyQuerySchema, output: O.PropertyOutputSchema },
  { id: 'create_profile_rest', summary: 'Create a strategy (alert) profile; webhook channels also need scope webhooks', scope: 'write-state', rest: post('/api/me/profiles'), input: I.ProfileInputSchema, output: O.ProfileCreatedSchema },
  { id: 'events', summary: 'Map sync stream (Server-Sent Events, resumable by Last-Event-ID or ?after=)', scope: 'read', rest: get('/api/events', 'sse'), input: I.EventsQuerySchema, output: z.string() },
  { id: 'openapi', summary: 'This OpenAPI 3.1 document', scope: 'read', rest: get('/api/openapi.json'), input: I.EmptyInputSchema, output: O.JsonDocumentSchema },
  { id: 'mcp_manifest', summary: 'Live tool catalog (v2 names; deprecated aliases with replacement)', scope: 'read', rest: get('/mcp/v2/manifest'), input: I.EmptyInputSchema, output: O.ManifestSchema },
  { id: 'mcp_tools', summary: 'Live tool catalog (same as /mcp/v2/manifest)', scope: 'read', rest: get('/api/mcp-tools'), input: I.EmptyInputSchema, output: O.ManifestSchema },
  { id: 'spec_valuation_contract', summary: 'Valuation tiers, ladder, gates and fields', scope: 'read', rest: get('/api/spec/valuation-contract.json'), input: I.EmptyInputSchema, output: O.JsonDocumentSchema },
  { id: 'spec_scoring_contract', summary: 'Factor weights, gates, economics factor and score caps', scope: 'read', rest: get('/api/spec/scoring-contract.json'), input: I.EmptyInputSchema, output: O.JsonDocumentSchema },
  { id: 'spec_constants_registry', summary: 'Every hand-set constant with unit, reason, source, group version and owner', scope: 'read', rest: get('/api/spec/constants-registry.json'), input: I.EmptyInputSchema, output: O.JsonDocumentSchema },
  { id: 'spec_error_taxonomy', summary: 'The closed set of error codes with HTTP statuses', scope: 'read', rest: get('/api/spec/error-taxonomy.json'), input: I.EmptyInputSchema, output: O.JsonDocumentSchema },
  { id: 'model_registry', summary: 'Current champion, artifact digest, promotion-gate summary, rollback pointer', scope: 'read', rest: get('/api/model-registry'), input: I.EmptyInputSchema, output: O.JsonDocumentSchema },
  { id: 'model_page', summary: 'The champion calibration\'s report as an HTML page (the latest one, labelled not promoted, when no calibration passed the gates), with the registry\'s champion and rollback and the data vintages', scope: 'read', rest: get('/model', 'html'), input: I.EmptyInputSchema, output: z.string() },
  { id: 'map_page', summary: 'The open web map (HTML): tracts shaded by a location signal, CCAO neighborhood and township outlines, active listings by strategy percentile, live on /api/events; every asset served by this service', scope: 'read', rest: get('/', 'html'), input: I.EmptyInputSchema, output: z.string() },
  { id: 'tract_shapes', summary: 'GeoJSON FeatureCollection of every mapped Cook and Lake tract polygon with its location signals (strategy location scores, effective tax rate, Section 8 gap; null = no data)', scope: 'read', rest: get('/api/geo/tracts'), input: I.EmptyInputSchema, output: TractShapesSchema },
  { id: 'neighborhood_shapes', summary: 'GeoJSON FeatureCollection of the CCAO assessment neighborhood outlines (Cook)', scope: 'read', rest: get('/api/geo/neighborhoods'), input: I.EmptyInputSchema, output: NeighborhoodShapesSchema },
  { id: 'township_shapes', summary: 'GeoJSON FeatureCollection of the CCAO township outlines (Cook)', scope: 'read', rest: get('/api/geo/townships'), input: I.EmptyInputSchema, output: TownshipShapesSchema },
  { id: 'scorecard', summary: 'Per-segment error and suppression rates', scope: 'read', rest: get('/api/metrics/scorecard'), input: I.EmptyInputSchema, output: O.JsonDocumentSchema },
  { id: 'state', summary: 'The caller\'s own favorites, notes, presets and alert profiles, newest write first, paginated by cursor (any valid key)', scope: 'private', rest: get('/api/state'), input: StateQuerySchema, output: StateOutputSchema },
  { id: 'deals', summary: 'The caller\'s saved deals (favorites), newest first, each with its current valuation and score (any valid key)', scope: 'private', rest: get('/api/deals'), input: DealsQuerySchema, output: DealsOutputSchema },
  { id: 'run_listings', summary: 'Run the listings job now (operator-only, Bearer WRITE_SECRET); a request while a run is in progress joins it', scope: 'operator', rest: post('/api/run-listings', 200), input: I.EmptyInputSchema, output: RunListingsOutputSchema },
  { id: 'my_keys', summary: 'Your API keys (the owner of the key you present): label, scopes, created, last used, revoked; never a secret (any valid key presented directly)', scope: 'private', rest: get('/api/me/keys'), input: I.EmptyInputSchema, output: K.MyKeysOutputSchema },
  { id: 'create_my_key', summary: 'Create a key for yourself with chosen scopes (each held by the key you present); its secret is in this answer only, and stored hashed', scope: 'private', rest: post('/api/me/keys'), input: K.CreateKeyInputSchema, output: K.IssuedKeyOutputSchema },
  { id: 'rotate_my_key', summary: 'Rotate one of your keys: a new secret with the same scopes and label (shown once); the old key stops working at once', scope: 'private', rest: post('/api/me/keys/rotate'), input: K.KeyIdInputSchema, output: K.IssuedKeyOutputSchema },
  { id: 'revoke_my_key', summary: 'Revoke one of your keys (OAuth-minted ones too, which ends that client\'s access); idempotent', scope: 'private', rest: post('/api/me/keys/revoke', 200), input: K.KeyIdInputSchema, output: K.RevokedKeyOutputSchema },
  { id: 'my_key_audit', summary: 'Audit records of your keys (operation, time, status, request id, address), newest first, kept 12 months', scope: 'private', rest: get('/api/me/keys/audit'), input: K.KeyAuditQuerySchema, output: K.KeyAuditOutputSchema },
  { id: 'keys_page', summary: 'Your keys page (HTML, no script): sign in with one of your keys, then create, rotate and revoke keys and read their audit records; its forms post back to /keys', scope: 'read', rest: get('/keys', 'html'), input: I.EmptyInputSchema, output: z.string() },
  { id: 'admin_analytics', summary: 'Operator-only beta funnel aggregates (Bearer WRITE_SECRET)', scope: 'operator', rest: get('/api/admin/analytics'), input: I.AnalyticsQuerySchema, output: O.AnalyticsOutputSchema },
  { id: 'analytics_event', summary: 'The public app\'s consent-only analytics: one coarse event with explicit analytics-v1 consent and a tab session (no IP, key, text or position stored); DNT: 1 or Sec-GPC: 1 answers 204 without reading the body', scope: 'read', rest: post('/api/analytics/events', 204), input: AnalyticsEventInputSchema, output: AnalyticsEventAckSchema },

  { id: 'search_investment_inventory', summary: 'Point-supported, current-model listings ranked by per-strategy inventory percentile; range-only, area-context, stale and suppressed rows excluded', scope: 'read', tool: { name: 'search_investment_inventory' }, input: I.InventorySearchInputSchema, output: O.InventorySearchOutputSchema },
  { id: 'search_deals', summary: 'Deprecated: use search_investment_inventory. Top listings plus top-scoring tracts', scope: 'read', tool: { name: 'search_deals', replacement: 'search_investment_inventory' }, input: I.SearchDealsInputSchema, output: O.SearchDealsOutputSchema },
  { id: 'deep_underwrite_asset', summary: 'Valuation evidence plus pro-forma only when calibrated evidence supports a point; yearly cashflow; assumptions echoed', scope: 'underwrite', tool: { name: 'deep_underwrite_asset' }, input: I.DeepUnderwriteInputSchema, output: O.UnderwriteAnswerSchema },
  { id: 'underwrite', summary: 'Deprecated: use deep_underwrite_asset. Underwrite with v1 parameters', scope: 'underwrite', tool: { name: 'underwrite', replacement: 'deep_underwrite_asset' }, input: I.UnderwriteAliasInputSchema, output: O.UnderwriteAnswerSchema },
  { id: 'get_comps', summary: 'Valuation evidence: accepted and rejected comps with reasons, adjustments, dispersion, tier, interval, method, confidence', scope: 'underwrite', tool: { name: 'get_comps', aliases: [{ name: 'comps', replacement: 'get_comps' }] }, input: I.CompsInputSchema, output: O.CompsOutputSchema },
  { id: 'get_tract_report', summary: 'Every labeled signal for one tract', scope: 'read', tool: { name: 'get_tract_report' }, input: I.TractReportInputSchema, output: O.TractReportOutputSchema },
  { id: 'market_pulse', summary: 'County pulse: top tracts per strategy, Section 8 arbitrage ZIPs, reassessment-shock leaders, data vintages', scope: 'read', tool: { name: 'market_pulse' }, input: I.MarketPulseInputSchema, output: O.MarketPulseOutputSchema },
  { id: 'risk_report', summary: 'Risk score 0-100, band and flags with reasons (independent of opportunity)', scope: 'read', tool: { name: 'risk_report' }, input: I.RiskReportInputSchema, output: O.RiskReportOutputSchema },
  { id: 'save_favorite_property', summary: 'Save a favorite property; syncs to the map stream', scope: 'write-state', tool: { name: 'save_favorite_property' }, input: I.FavoriteInputSchema, output: WriteAckSchema },
  { id: 'update_underwriting_preset', summary: 'Create or update a named underwriting preset', scope: 'write-state', tool: { name: 'update_underwriting_preset' }, input: I.PresetInputSchema, output: WriteAckSchema },
  { id: 'create_strategy_profile', summary: 'Create an alert subscription (webhook channels also need scope webhooks)', scope: 'write-state', tool: { name: 'create_strategy_profile' }, input: I.ProfileInputSchema, output: O.ProfileCreatedSchema },
  { id: 'add_note', summary: 'Attach a note (body at most 4000 characters)', scope: 'write-state', tool: { name: 'add_note' }, input: I.NoteInputSchema, output: WriteAckSchema },
  { id: 'update_map_filters', summary: 'UI controller: push a filter update onto the sync stream', scope: 'read', tool: { name: 'update_map_filters' }, input: I.MapFiltersInputSchema, output: UiAckSchema },
  { id: 'fly_to_location', summary: 'UI controller: move the map to a location', scope: 'read', tool: { name: 'fly_to_location' }, input: I.FlyToInputSchema, output: UiAckSchema },
  { id: 'highlight_properties', summary: 'UI controller: highlight property ids on the map', scope: 'read', tool: { name: 'highlight_properties' }, input: I.HighlightInputSchema, output: UiAckSchema },
];

const BY_ID = new Map(OPERATIONS.map((o) => [o.id, o]));
const BY_REST = new Map(OPERATIONS.filter((o) => o.rest).map((o) => [`${o.rest!.method} ${o.rest!.path}`, o]));

export function operationById(id: string): Operation | undefined {
  return BY_ID.get(id);
}

/** REST paths carry no parameters, so a lookup is exact on method and path. */
export function operationForRequest(method: string, path: string): Operation | undefined {
  return BY_REST.get(`${method === 'HEAD' ? 'GET' : method} ${path}`);
}

/** Every tool name the MCP door serves, v2 names first, then aliases, with the operation behind each. */
export function toolEntries(): Array<{ name: string; op: Operation; deprecated: boolean; replacement?: string }> {
  const out: Array<{ name: string; op: Operation; deprecated: boolean; replacement?: string }> = [];
  for (const o of OPERATIONS) if (o.tool && !o.tool.replacement) out.push({ name: o.tool.name, op: o, deprecated: false });
  for (const o of OPERATIONS) {
    if (o.tool?.replacement) out.push({ name: o.tool.name, op: o, deprecated: true, replacement: o.tool.replacement });
    for (const a of o.tool?.aliases ?? []) out.push({ name: a.name, op: o, deprecated: true, replacement: a.replacement });
  }
  return out;
}
