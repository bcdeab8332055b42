// Inventory search over the stored listing rows (search_investment_inventory and the deprecated search_deals):
// only point-supported, current-model, active rows with a percentile for the strategy; ranked by that percentile.
// Range-only, area-context, suppressed, stale and unscored rows are excluded (and counted, so an empty page explains
// itself: inventory-empty.ts says what the scored rows were and which gates they failed).
import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { LISTINGS_RUN } from '../registry/groups/listings.js';
import { MODEL_VERSION, MODEL_VERSIONS } from '../registry/versions.js';
import { DISCLOSURE } from '../contracts/valuation.js';
import { INVENTORY_FIELDS } from '../contracts/inventory.js';
import { STRATEGIES, type Strategy } from '../underwriting/types.js';
import { explainNoEligibleRows } from './inventory-empty.js';
import { isPointSupportedRow, type ScoredListing } from './rows.js';

const L = LISTINGS_RUN.v;

export const InventoryQuerySchema = z.strictObject({
  metro: z.literal('chicago').default('chicago'),
  strategy: z.enum(STRATEGIES).default('brrrr'),
  bbox: z.string().optional(),
  geography: z.string().min(1).optional(),
  min_percentile: z.number().min(0).max(100).optional(),
  max_price: z.number().min(0).optional(),
  min_confidence: z.number().min(0).max(100).optional(),
  fields: z.string().optional(),
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(L.inventory_page_max).default(L.inventory_page_default),
});
export type InventoryQuery = z.input<typeof InventoryQuerySchema>;

export { INVENTORY_FIELDS };
type Field = (typeof INVENTORY_FIELDS)[number];

export type ExclusionCounts = { not_active: number; not_point: number; stale_model: number; unscored_for_strategy: number; filtered: number };

/** Shaped as contracts/tools.ts InventorySearchOutputSchema (plus the exclusion counts). */
export type InventoryPage = {
  as_of: string;
  model_versions: typeof MODEL_VERSIONS;
  confidence: null;
  strategy: Strategy;
  results: Array<Partial<Record<Field, unknown>>>;
  total: number;
  next_cursor: string | null;
  empty_reason: string | null;
  excluded: ExclusionCounts;
  disclosure: string;
};

/**
 * The row test for a `geography` as typed; throws validation_failed for a name it does not know. geography.ts builds
 * the one the service uses (ZIP, municipality, township, CCAO neighborhood or neighborhood group).
 */
export type GeographyResolver = (geography: string) => (row: ScoredListing) => boolean;

/** Without a resolver only a 5-digit ZIP can be matched; a name is refused rather than matching nothing. */
const zipOnly: GeographyResolver = (geography) => {
  const zip = geography.trim();
  if (!/^\d{5}$/.test(zip)) throw new AppError('validation_failed', 'geography: only a 5-digit ZIP can be matched here');
  return (r) => r.zip === zip;
};

function parseBbox(s: string): [number, number, number, number] {
  const p = s.split(',').map((x) => Number(x.trim()));
  if (p.length !== 4 || p.some((x) => !Number.isFinite(x)) || p[0] > p[2] || p[1] > p[3]) {
    throw new AppError('validation_failed', 'bbox must be "west,south,east,north" with west ≤ east and south ≤ north');
  }
  return p as [number, number, number, number];
}

function parseFields(s: string | undefined): Field[] {
  if (s === undefined) return [...INVENTORY_FIELDS];
  const asked = s.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = asked.filter((f) => !(INVENTORY_FIELDS as readonly string[]).includes(f));
  if (unknown.length > 0 || asked.length === 0) throw new AppError('validation_failed', `fields: unknown or empty (${unknown.join(', ') || 'none given'}); allowed: ${INVENTORY_FIELDS.join(', ')}`);
  return asked as Field[];
}

/** Cursor: opaque base64url of {o: offset, s: strategy}; a cursor from another strategy is rejected. */
export function encodeCursor(offset: number, strategy: Strategy): string {
  return Buffer.from(JSON.stringify({ o: offset, s: strategy })).toString('base64url');
}
function decodeCursor(c: string, strategy: Strategy): number {
  try {
    const v = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as { o?: unknown; s?: unknown };
    if (Number.isInteger(v.o) && (v.o as number) >= 0 && v.s === strategy) return v.o as number;
  } catch {
    /* fall through to the error */
  }
  throw new AppError('invalid_cursor', 'cursor is not one this search issued (or belongs to another strategy)');
}

/** Why a row can never appear in inventory search, or null when it is eligible for `strategy`. */
export function exclusionOf(r: ScoredListing, strategy: Strategy, modelVersion = MODEL_VERSION): keyof ExclusionCounts | null {
  if (r.status !== 'active') return 'not_active';
  if (!isPointSupportedRow(r)) return 'not_point';
  if (r.model_version !== modelVersion) return 'stale_model';
  if (r.percentiles?.[strategy] === null || r.percentiles?.[strategy] === undefined) return 'unscored_for_strategy';
  return null;
}

function project(r: ScoredListing, strategy: Strategy, fields: Field[]): Partial<Record<Field, unknown>> {
  const all: Record<Field, unknown> = {
    listing_id: r.listing_id, address: r.address, zip: r.zip, price: r.price_usd, url: r.url, lat: r.lat, lon: r.lon, units: r.units,
    property_type: r.property_type, percentile: r.percentiles[strategy], percentiles: r.percentiles, deal_score: r.deal_score, best_strategy: r.best_strategy,
    arv: r.valuation.arv_value, arv_low: r.valuation.arv_low, arv_high: r.valuation.arv_high, arv_method: r.valuation.arv_method,
    arv_confidence: r.valuation.arv_confidence, confidence: r.valuation.arv_confidence, strategy_scores: r.percentiles, investor_targets: r.investor_targets, model_version: r.model_version, scored_at: r.scored_at,
    first_seen_at: r.first_seen_at, reasons: r.reasons,
  };
  return Object.fromEntries(fields.map((f) => [f, all[f]]));
}

/** Ranked best first: strategy percentile desc, then price asc, then listing_id (a total order, stable pages). */
export function searchInventory(rows: readonly ScoredListing[], raw: InventoryQuery, geographyOf?: GeographyResolver, now: Date = new Date()): InventoryPage {
  const parsed = InventoryQuerySchema.safeParse(raw);
  if (!parsed.success) throw new AppError('validation_failed', `inventory query invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  const q = parsed.data;
  const fields = parseFields(q.fields);
  const bbox = q.bbox === undefined ? null : parseBbox(q.bbox);
  const geo = q.geography === undefined ? null : (geographyOf ?? zipOnly)(q.geography);
  const excluded: ExclusionCounts = { not_active: 0, not_point: 0, stale_model: 0, unscored_for_strategy: 0, filtered: 0 };
  const hits: ScoredListing[] = [];
  for (const r of rows) {
    const why = exclusionOf(r, q.strategy);
    if (why !== null) {
      excluded[why]++;
      continue;
    }
    const pass = (q.min_percentile === undefined || (r.percentiles[q.strategy] as number) >= q.min_percentile)
      && (q.max_price === undefined || r.price_usd <= q.max_price)
      && (q.min_confidence === undefined || (r.valuation.arv_confidence ?? -1) >= q.min_confidence)
      && (bbox === null || (r.lon >= bbox[0] && r.lon <= bbox[2] && r.lat >= bbox[1] && r.lat <= bbox[3]))
      && (geo === null || geo(r));
    if (pass) hits.push(r);
    else excluded.filtered++;
  }
  const s = q.strategy;
  hits.sort((a, b) => (b.percentiles[s] as number) - (a.percentiles[s] as number) || a.price_usd - b.price_usd || (a.listing_id < b.listing_id ? -1 : 1));
  const offset = q.cursor === undefined ? 0 : decodeCursor(q.cursor, s);
  const page = hits.slice(offset, offset + q.limit);
  const end = offset + page.length;
  const eligible = rows.length - excluded.not_active - excluded.not_point - excluded.stale_model - excluded.unscored_for_strategy;
  const emptyReason = hits.length > 0 ? null : eligible === 0 ? explainNoEligibleRows(rows, s) : 'filters too tight';
  return {
    as_of: now.toISOString(), model_versions: MODEL_VERSIONS, confidence: null, strategy: s, results: page.map((r) => project(r, s, fields)), total: hits.length,
    next_cursor: end < hits.length ? encodeCursor(end, s) : null, empty_reason: emptyReason, excluded, disclosure: DISCLOSURE,
  };
}

export type SearchDealsQuery = { metro?: string; strategy?: Strategy; min_score?: number; max_price?: number; limit?: number; since_hours?: number };

/** search_deals (deprecated alias): min_score omitted → the top-quartile cutoff; since_hours → first seen within N hours. */
export function searchDeals(rows: readonly ScoredListing[], q: SearchDealsQuery, now: Date): InventoryPage {
  if (q.since_hours !== undefined && !(q.since_hours >= 0)) throw new AppError('validation_failed', 'since_hours must be ≥ 0');
  const sinceMs = q.since_hours === undefined ? null : now.getTime() - q.since_hours * 3_600_000;
  const recent = sinceMs === null ? rows : rows.filter((r) => Date.parse(r.first_seen_at) >= sinceMs);
  return searchInventory(recent, {
    metro: (q.metro ?? 'chicago') as 'chicago', strategy: q.strategy ?? 'brrrr', min_percentile: q.min_score ?? L.search_deals_top_quartile,
    max_price: q.max_price, limit: Math.min(q.limit ?? L.search_deals_limit_default, L.inventory_page_max),
  }, undefined, now);
}
