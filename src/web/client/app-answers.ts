// The MCP App's tool results in the shapes the open web map already reads, so the app draws them with the same code:
// get_comps and deep_underwrite_asset as a GET /api/property body for the evidence panel (renderEvidence), and a
// search_investment_inventory page as a GET /api/listings/chicago body for the map's listing layer (showListings).
// Field moves only: every number is the tool's own, nothing is computed here. No DOM, so Node tests read it.
import type { Comp, CompRejection } from '../../contracts/comp.js';
import type { Refusal } from '../../contracts/common.js';
import type { CompsOutput, InventorySearchOutput, UnderwriteAnswer } from '../../contracts/tools.js';
import type { Valuation } from '../../contracts/valuation.js';
import { STRATEGIES, type Strategy } from './map-layers.js';
import type { ListingRow, ListingsBody } from './map-data.js';

/**
 * The part of a valuation a get_comps answer carries, under the names renderEvidence reads. No rent, rehab or tax
 * (get_comps has none), and `display.point_actionable` is left out, so the panel never shows a pro-forma for it.
 */
export type CompsValuation = {
  subject: CompsOutput['subject'];
  disclosure: string;
  display: { outcome: NonNullable<Valuation['display']>['outcome'] };
  arv: {
    value: number | null; low: number | null; high: number | null; range_only: boolean | null; method_tier: number | null; method: string | null;
    interval: CompsOutput['calibrated_interval']; confidence_p10: null; confidence: number | null; segment: string | null;
    suppression_reason: string | null; range_reason: string | null; ladder_step: number | null; n_comps: number; comps: Comp[];
  };
  artifact: { comps_rejected: CompRejection[] };
};

/** What renderEvidence is handed for a tool result: the /api/property body's shape (risk and tract: tools carry none). */
export type PanelBody = {
  property: unknown;
  investor: { valuation: Valuation | CompsValuation | null; risk: null; tract: null };
  refusal: Refusal | null;
  disclosure: string;
};

const OUTCOMES = ['point', 'range', 'tier2_range', 'area_context', 'suppressed'] as const satisfies readonly CompsValuation['display']['outcome'][];
const isOutcome = (o: unknown): o is CompsValuation['display']['outcome'] => (OUTCOMES as readonly unknown[]).includes(o);

/**
 * get_comps → panel body. The answer's `confidence` is the valuation's confidence_p10 when it has one (answer meta,
 * src/workers/answers/evidence-answers.ts), so it goes where the panel reads it. A get_comps answer has no area
 * estimate: an area_context outcome is shown as "no value" with its suppression reason, never with a number.
 */
export function panelBodyOfComps(a: CompsOutput): PanelBody {
  const outcome = isOutcome(a.outcome) ? a.outcome : null;
  const valuation: CompsValuation | null = outcome === null ? null : {
    subject: a.subject,
    disclosure: a.disclosure,
    display: { outcome },
    arv: {
      value: a.value, low: a.interval?.low ?? null, high: a.interval?.high ?? null,
      range_only: outcome === 'point' ? false : outcome === 'range' || outcome === 'tier2_range' ? true : null,
      method_tier: a.tier, method: a.method, interval: a.calibrated_interval, confidence_p10: null, confidence: a.confidence,
      segment: a.segment, suppression_reason: a.suppression_reason, range_reason: a.range_reason, ladder_step: a.ladder_step,
      n_comps: a.comps_used.length, comps: a.comps_used,
    },
    artifact: { comps_rejected: a.comps_rejected },
  };
  return { property: a.subject, investor: { valuation, risk: null, tract: null }, refusal: a.refusal, disclosure: a.disclosure };
}

/** deep_underwrite_asset → panel body: its valuation is the very object /api/property serves under investor.valuation. */
export function panelBodyOfUnderwrite(a: UnderwriteAnswer): PanelBody {
  return { property: a.valuation?.subject ?? null, investor: { valuation: a.valuation, risk: null, tract: null }, refusal: a.refusal, disclosure: a.disclosure };
}

const isStrategy = (s: unknown): s is Strategy => (STRATEGIES as readonly unknown[]).includes(s);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * search_investment_inventory → listings body. Inventory lists only active listings (src/listings/inventory.ts
 * exclusionOf), so every row is `active`; a row's percentile is the one of the searched strategy (all four when the
 * row carries `percentiles`). Rows without an id, a position or a price (a narrowed `fields`) stay off the map.
 */
export function listingsBodyOf(a: InventorySearchOutput): ListingsBody {
  const listings: ListingRow[] = [];
  for (const r of a.results) {
    const lat = num(r.lat);
    const lon = num(r.lon);
    const price = num(r.price);
    if (typeof r.listing_id !== 'string' || lat === undefined || lon === undefined || price === undefined) continue;
    const all = typeof r.percentiles === 'object' && r.percentiles !== null ? (r.percentiles as ListingRow['percentiles']) : null;
    const percentile = num(r.percentile);
    const percentiles = all ?? (isStrategy(a.strategy) && percentile !== undefined ? { [a.strategy]: percentile } : null);
    const confidence = num(r.confidence) ?? null;
    listings.push({ listing_id: r.listing_id, address: r.address ?? '', status: 'active', price, lat, lon, percentiles, valuation: { arv_confidence: confidence } });
  }
  return { listings };
}
