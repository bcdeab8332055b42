// Public surface of the listings domain for the doors and the CLI: the run, the scheduler, inventory search and the
// /api/listings/chicago payload (active rows only, at most 200, deduped by address; deal_score null = unscored).
import { DISCLOSURE } from '../contracts/valuation.js';
import type { ListingEvent } from '../ingest/loaders/listings.js';
import { LISTINGS_RUN } from '../registry/groups/listings.js';
import type { Store } from '../store/store.js';
import type { ScoredListing } from './rows.js';

export { runListingsOnce, subjectOfListing, FIRST_SEEN_META_KEY, type ListingsRunDeps, type ListingsRunResult, type RunKind } from './run.js';
export { runListings, formatRunSummary, type RunListingsOptions } from './job.js';
export { startListingsScheduler, nextRunAt, lastRunAt, type ListingsScheduler, type SchedulerOptions } from './scheduler.js';
export { searchInventory, searchDeals, InventoryQuerySchema, INVENTORY_FIELDS, type InventoryQuery, type InventoryPage, type SearchDealsQuery } from './inventory.js';
export { geographyResolver } from './geography.js';
export { dedupeByAddress, addressKey } from './dedupe.js';
export { localScorer, localScorerFor, poolScorer, scoreInBatches, type BatchScorer } from '../scoring/scorer.js';
export type { ScoredListing } from './rows.js';

/** The stored rows of the current active inventory (status `active` as written by the last run). */
export function activeListings(store: Store): ScoredListing[] {
  return (store.getListings() as ScoredListing[]).filter((r) => r.status === 'active' && r.scored_at !== undefined);
}

/** Motivation signals from the listing history; null when the history is empty (no evidence, nothing inferred). */
export function motivationOf(listDate: string, history: readonly ListingEvent[], asOf: Date): { days_on_market: number; price_cuts: number; price_cut_pct: number | null } | null {
  if (history.length === 0) return null;
  const prices = history.map((e) => e.price_usd).filter((p): p is number => p !== null && p > 0);
  // A cut is any recorded price below the one before it (feeds say price_change, price_cut, reduced...).
  const cuts = prices.filter((p, i) => i > 0 && p < prices[i - 1]).length;
  const first = prices[0];
  const last = prices[prices.length - 1];
  return {
    days_on_market: Math.max(0, Math.floor((asOf.getTime() - Date.parse(`${listDate}T00:00:00Z`)) / 86_400_000)),
    price_cuts: cuts,
    price_cut_pct: prices.length >= 2 && first > 0 ? (first - last) / first : null,
  };
}

/** /api/listings/chicago body: up to 200 active rows, best deal_score first, unscored (null) last. */
export function listingsPayload(store: Store, now: Date): { count: number; as_of: string | null; listings: Array<Record<string, unknown>>; disclosure: string } {
  const rows = activeListings(store)
    .sort((a, b) => (b.deal_score ?? -1) - (a.deal_score ?? -1) || (a.listing_id < b.listing_id ? -1 : 1))
    .slice(0, LISTINGS_RUN.v.max_active_listings);
  const listings = rows.map((r) => ({
    listing_id: r.listing_id, address: r.address, zip: r.zip, status: r.status, price: r.price_usd, url: r.url, lat: r.lat, lon: r.lon,
    units: r.units, beds: r.beds, sqft: r.sqft, year_built: r.year_built, property_type: r.property_type, list_date: r.list_date,
    deal_score: r.deal_score, score_basis: r.score_basis, best_strategy: r.best_strategy, percentiles: r.percentiles,
    model_version: r.model_version, scored_at: r.scored_at, reasons: r.reasons, strategy_null_reasons: r.strategy_null_reasons,
    strategy_gate_failures: r.strategy_gate_failures ?? null, provenance: r.provenance,
    valuation: r.valuation, investor_targets: r.investor_targets, motivation: motivationOf(r.list_date, r.history ?? [], now), disclosure: DISCLOSURE,
  }));
  return { count: listings.length, as_of: store.lastRun()?.finished ?? null, listings, disclosure: DISCLOSURE };
}
