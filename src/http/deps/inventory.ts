// Inventory search over scored listings: eligibility (point-supported, current model), filters, ranking by the
// strategy's inventory percentile, the `fields` allowlist and opaque cursor pagination. Ranking only: the scores
// themselves are written by the listings run (scoring/), never computed here.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AnswerMetaSchema, StrategySchema } from '../../contracts/common.js';
import type { InventorySearchInput, SearchDealsInput } from '../../contracts/inputs.js';
import type { InventoryRow, InventorySearchOutput } from '../../contracts/tools.js';
import { DISCLOSURE } from '../../contracts/valuation.js';
import { AppError } from '../../errors/app-error.js';
import { DOORS } from '../../registry/groups/doors.js';
import { MODEL_VERSION, MODEL_VERSIONS } from '../../registry/versions.js';
import type { Strategy } from '../../underwriting/types.js';
import type { StoredListing } from './listings.js';

/** The scoring fields a listing must carry to be searchable (written by the daily listings run). */
export const ScoredListingSchema = z.looseObject({
  model_version: z.string(),
  point_actionable: z.literal(true),
  percentiles: z.partialRecord(StrategySchema, z.number().min(0).max(100).nullable()),
  confidence: z.number().min(0).max(100).nullable(),
  deal_score: z.number().nullable().optional(),
  arv: z.number().nullable().optional(),
  strategy_scores: z.record(z.string(), z.unknown()).nullable().optional(),
});

type Eligible = { row: StoredListing; percentile: number; confidence: number | null; scored: z.infer<typeof ScoredListingSchema> };

/** Rows with a current-model, point-actionable percentile for `strategy`; everything else is excluded, not zeroed. */
export function eligibleRows(rows: readonly StoredListing[], strategy: Strategy): Eligible[] {
  const out: Eligible[] = [];
  for (const row of rows) {
    if (row.status !== 'active') continue;
    const s = ScoredListingSchema.safeParse(row);
    if (!s.success || s.data.model_version !== MODEL_VERSION) continue;
    const p = s.data.percentiles[strategy];
    if (typeof p === 'number') out.push({ row, percentile: p, confidence: s.data.confidence, scored: s.data });
  }
  return out.sort((a, b) => b.percentile - a.percentile || a.row.listing_id.localeCompare(b.row.listing_id));
}

function inBbox(bbox: string, lat: number, lon: number): boolean {
  const [w, s, e, n] = bbox.split(',').map(Number);
  return lon >= w && lon <= e && lat >= s && lat <= n;
}

function project(e: Eligible, fields: string[] | null): InventoryRow {
  const full: Record<string, unknown> = {
    listing_id: e.row.listing_id, address: e.row.address, zip: e.row.zip, price: e.row.price_usd, url: e.row.url, lat: e.row.lat, lon: e.row.lon,
    units: e.row.units, percentile: e.percentile, deal_score: e.scored.deal_score ?? null, confidence: e.confidence, model_version: e.scored.model_version,
    arv: e.scored.arv ?? null, strategy_scores: e.scored.strategy_scores ?? null,
  };
  return fields ? Object.fromEntries(fields.map((f) => [f, full[f]])) : full;
}

/** Cursor = base64url JSON {o: offset, k: digest of the filters}; a cursor from other filters is refused. */
function filterKey(i: InventorySearchInput): string {
  const { cursor: _c, limit: _l, fields: _f, ...filters } = i;
  return createHash('sha256').update(JSON.stringify(Object.entries(filters).sort())).digest('hex').slice(0, 16);
}
export function encodeCursor(offset: number, key: string): string {
  return Buffer.from(JSON.stringify({ o: offset, k: key })).toString('base64url');
}
export function decodeCursor(cursor: string, key: string): number {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('invalid_cursor', 'cursor is not one this service issued');
  }
  const c = parsed as { o?: unknown; k?: unknown };
  if (!Number.isInteger(c?.o) || (c.o as number) < 0 || c.k !== key) throw new AppError('invalid_cursor', 'cursor is malformed or belongs to other filters');
  return c.o as number;
}

function filtered(rows: readonly StoredListing[], i: InventorySearchInput): Eligible[] {
  return eligibleRows(rows, i.strategy).filter(
    (e) =>
      (i.bbox === undefined || inBbox(i.bbox, e.row.lat, e.row.lon)) &&
      (i.geography === undefined || e.row.zip === i.geography.trim() || e.row.address.toLowerCase().includes(i.geography.trim().toLowerCase())) &&
      (i.min_percentile === undefined || e.percentile >= i.min_percentile) &&
      (i.max_price === undefined || e.row.price_usd <= i.max_price) &&
      (i.min_confidence === undefined || (e.confidence !== null && e.confidence >= i.min_confidence)),
  );
}

/** Confidence of a page: the lowest row confidence on it (a page is as sure as its least sure row); null if empty. */
function pageConfidence(page: Eligible[]): number | null {
  const cs = page.map((e) => e.confidence).filter((c): c is number => c !== null);
  return cs.length ? Math.min(...cs) : null;
}

export function searchInventory(rows: readonly StoredListing[], i: InventorySearchInput, now: Date): InventorySearchOutput {
  const key = filterKey(i);
  const offset = i.cursor === undefined ? 0 : decodeCursor(i.cursor, key);
  const all = filtered(rows, i);
  const page = all.slice(offset, offset + i.limit);
  const fields = i.fields ? [...new Set(i.fields.split(',').map((f) => f.trim()))] : null;
  const anyScored = rows.some((r) => ScoredListingSchema.safeParse(r).success);
  return {
    as_of: now.toISOString(),
    model_versions: { ...MODEL_VERSIONS },
    confidence: pageConfidence(page),
    strategy: i.strategy,
    results: page.map((e) => project(e, fields)),
    total: all.length,
    next_cursor: offset + page.length < all.length ? encodeCursor(offset + page.length, key) : null,
    empty_reason: all.length > 0 ? null : anyScored ? 'no_rows_match_filters' : 'no_scored_inventory_yet (see /api/health last_run)',
    disclosure: DISCLOSURE,
  };
}

/** Nearest-rank quantile of the eligible percentiles: the "live top-quartile cutoff" of search_deals. */
export function topQuartileCutoff(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(DOORS.v.top_quartile_frac * sorted.length) - 1)];
}

export type TopTract = { geoid: string; muni: string | null; score: number };

export function searchDeals(rows: readonly StoredListing[], i: SearchDealsInput, tracts: TopTract[], now: Date) {
  let eligible = eligibleRows(rows, i.strategy);
  if (i.since_hours !== undefined) {
    const sinceDay = new Date(now.getTime() - i.since_hours * 3_600_000).toISOString().slice(0, 10);
    eligible = eligible.filter((e) => e.row.list_date >= sinceDay);
  }
  const cutoff = i.min_score ?? topQuartileCutoff(eligible.map((e) => e.percentile));
  const all = eligible.filter((e) => (cutoff === null || e.percentile >= cutoff) && (i.max_price === undefined || e.row.price_usd <= i.max_price));
  const page = all.slice(0, i.limit);
  const meta = AnswerMetaSchema.parse({ as_of: now.toISOString(), model_versions: { ...MODEL_VERSIONS }, confidence: pageConfidence(page) });
  return {
    ...meta,
    strategy: i.strategy,
    results: page.map((e) => project(e, null)),
    total: all.length,
    empty_reason: all.length > 0 ? null : eligible.length > 0 ? 'no_rows_match_filters' : 'no_scored_inventory_yet (see /api/health last_run)',
    disclosure: DISCLOSURE,
    min_score_applied: cutoff,
    top_tracts: tracts.slice(0, DOORS.v.top_tracts_count),
    deprecated: true as const,
    replacement: 'search_investment_inventory' as const,
  };
}
