// What the MCP App draws for one tool call, worked out from the tool's name, its arguments and its structured result
// only (no DOM, no network): get_comps / deep_underwrite_asset as the evidence panel's body (app-answers.ts), the
// listings of search_investment_inventory as the map's listings body, and the view changes of the three controller
// tools. Pure, so it is tested in Node.
import type { CompsOutput, InventorySearchOutput, UnderwriteAnswer } from '../../contracts/tools.js';
import { listingsBodyOf, panelBodyOfComps, panelBodyOfUnderwrite, type PanelBody } from './app-answers.js';
import type { ListingsBody, MapFilters } from './map-data.js';
import { STRATEGIES, type Strategy } from './map-layers.js';
import type { LngLat } from './evidence-view.js';

export type { MapFilters };

export type Scene =
  | { kind: 'evidence'; tool: string; body: PanelBody }
  | { kind: 'listings'; tool: string; listings: ListingsBody; strategy: Strategy | null; emptyReason: string | null; disclosure: string | null }
  | { kind: 'fly_to'; target: LngLat & { zoom: number | null }; }
  | { kind: 'fly_to_address'; address: string }
  | { kind: 'highlight'; ids: string[] }
  | { kind: 'filters'; filters: MapFilters }
  | { kind: 'error'; tool: string; message: string }
  | { kind: 'none'; tool: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const strategyOf = (v: unknown): Strategy | null => ((STRATEGIES as readonly unknown[]).includes(v) ? (v as Strategy) : null);

/** A point only when both coordinates are real numbers: a missing location is left off the map, never put at 0,0. */
export function lngLatOf(v: unknown): LngLat | null {
  if (!isObj(v)) return null;
  const lat = num(v.lat);
  const lon = num(v.lon);
  return lat === null || lon === null ? null : { lat, lon };
}

/** The first text block of an error result (the service's error body is JSON with a taxonomy code). */
function errorMessage(result: { content?: unknown }): string {
  const first = Array.isArray(result.content) ? result.content.find((c) => isObj(c) && c.type === 'text') : undefined;
  const text = isObj(first) && typeof first.text === 'string' ? first.text : 'the tool call failed';
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return body.error ? `${body.error.code ?? 'error'}: ${body.error.message ?? ''}` : text;
  } catch {
    return text;
  }
}

/** The scene of a tool result (get_comps, deep_underwrite_asset, search_investment_inventory). */
export function sceneOfResult(tool: string, result: { isError?: boolean; structuredContent?: unknown; content?: unknown }): Scene {
  if (result.isError) return { kind: 'error', tool, message: errorMessage(result) };
  const answer = isObj(result.structuredContent) ? result.structuredContent : null;
  if (!answer) return { kind: 'none', tool };
  // The structured content is the tool's output schema (contracts/tools.ts), validated by the server before it left.
  if (tool === 'get_comps') return { kind: 'evidence', tool, body: panelBodyOfComps(answer as CompsOutput) };
  if (tool === 'deep_underwrite_asset') return { kind: 'evidence', tool, body: panelBodyOfUnderwrite(answer as UnderwriteAnswer) };
  if (tool === 'search_investment_inventory') {
    const page = answer as InventorySearchOutput;
    return { kind: 'listings', tool, listings: listingsBodyOf(page), strategy: strategyOf(page.strategy), emptyReason: str(page.empty_reason), disclosure: str(page.disclosure) };
  }
  return { kind: 'none', tool };
}

/** The scene of a controller tool's arguments (its result is only an acknowledgement of the stream event). */
export function sceneOfControllerInput(tool: string, args: unknown): Scene {
  const a = isObj(args) ? args : {};
  if (tool === 'fly_to_location') {
    const at = lngLatOf(a);
    if (at) return { kind: 'fly_to', target: { ...at, zoom: num(a.zoom) } };
    const address = str(a.address);
    return address ? { kind: 'fly_to_address', address } : { kind: 'none', tool };
  }
  if (tool === 'highlight_properties') return { kind: 'highlight', ids: Array.isArray(a.ids) ? a.ids.filter((x): x is string => typeof x === 'string') : [] };
  if (tool === 'update_map_filters') {
    const filters: MapFilters = {};
    const strategy = strategyOf(a.strategy);
    if (strategy) filters.strategy = strategy;
    for (const k of ['min_percentile', 'max_price', 'min_confidence'] as const) if (num(a[k]) !== null) filters[k] = a[k] as number;
    if (Array.isArray(a.statuses)) filters.statuses = a.statuses.filter((x): x is string => typeof x === 'string');
    return { kind: 'filters', filters };
  }
  return { kind: 'none', tool };
}

export const CONTROLLER_TOOLS: ReadonlySet<string> = new Set(['fly_to_location', 'highlight_properties', 'update_map_filters']);

/** The inventory query that puts listings on the map for a controller scene (filters carry over; the rest default). */
export function inventoryArgsFor(scene: Scene): Record<string, unknown> {
  if (scene.kind !== 'filters') return {};
  const { strategy, min_percentile, max_price, min_confidence } = scene.filters;
  return Object.fromEntries(Object.entries({ strategy, min_percentile, max_price, min_confidence }).filter(([, v]) => v !== undefined));
}

const TOOL_OF_EVENT_KIND: Record<string, string> = { fly_to: 'fly_to_location', highlight: 'highlight_properties', map_filters_updated: 'update_map_filters' };

/**
 * Which tool produced a result when the host did not say (hostContext.toolInfo is optional in the extension): told
 * apart by the output shapes of the contracts (src/contracts/tools.ts, UiAck's event kind).
 */
export function toolOfResult(structured: unknown): string | null {
  if (!isObj(structured)) return null;
  if ('comps_used' in structured) return 'get_comps';
  if ('valuation' in structured && 'offers' in structured) return 'deep_underwrite_asset';
  if ('results' in structured && 'next_cursor' in structured) return 'search_investment_inventory';
  return typeof structured.kind === 'string' ? (TOOL_OF_EVENT_KIND[structured.kind] ?? null) : null;
}
