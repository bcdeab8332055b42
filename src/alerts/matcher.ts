// Pure matching of scored inventory rows against one alert profile, the price bucket used for dedupe, and ranking.
// No storage here: digest.ts owns the persisted dedupe and once-per-day state.
import { ALERTS } from '../registry/groups/alerts.js';
import type { ScoredRow } from './payload.js';
import type { Strategy } from '../contracts/common.js';
import type { StoredProfile } from './profile.js';

/** Why a row does not match (first failing rule), or null when it matches. Bounds are inclusive. */
export function mismatchReason(row: ScoredRow, p: Pick<StoredProfile, 'strategy' | 'min_percentile' | 'max_price' | 'min_confidence' | 'bbox' | 'criteria'>): string | null {
  if (!row.point_actionable) return 'not_point_actionable';
  const pct = row.percentiles[p.strategy];
  if (pct === null || pct === undefined) return 'unscored_for_strategy';
  if (pct < p.min_percentile) return 'below_min_percentile';
  if (!(row.price > 0) || row.price > p.max_price) return 'above_max_price';
  if (row.confidence < p.min_confidence) return 'below_min_confidence';
  const [west, south, east, north] = p.bbox;
  if (!(row.lon >= west && row.lon <= east && row.lat >= south && row.lat <= north)) return 'outside_bbox';
  if (p.criteria.zips && !p.criteria.zips.includes(row.zip)) return 'zip_not_in_criteria';
  return null;
}

const LOG_STEP = Math.log1p(ALERTS.v.price_bucket_frac);

/**
 * Log-width price bucket: floor(ln(priceUsd) / ln(1 + 0.025)). Bucket k spans [1.025^k, 1.025^(k+1)), so every
 * bucket is 2.5% wide whatever the price level. Example: $200,000 -> floor(12.20607 / 0.0246926) = 494.
 */
export function priceBucket(priceUsd: number): number {
  if (!(priceUsd > 0)) throw new RangeError(`priceBucket needs a positive price, got ${priceUsd}`);
  return Math.floor(Math.log(priceUsd) / LOG_STEP);
}

/** What the dedupe store remembers per (profile, listing). */
export type SeenState = { buckets: number[]; last_price_usd: number; last_alerted_at: string };

/**
 * A row is news for a profile when it was never alerted, or its price moved into a bucket not alerted before AND by at
 * least one bucket width from the last alerted price (so a $1 wobble across a bucket edge does not re-alert).
 */
export function isNewForProfile(seen: SeenState | undefined, priceUsd: number): boolean {
  if (!seen) return true;
  if (seen.buckets.includes(priceBucket(priceUsd))) return false;
  return Math.abs(Math.log(priceUsd / seen.last_price_usd)) >= LOG_STEP;
}

/** Best first: strategy percentile desc, then price asc, then listing_id (a total order, so digests are reproducible). */
export function rankForStrategy(rows: ScoredRow[], strategy: Strategy): ScoredRow[] {
  return [...rows].sort((a, b) => {
    const d = (b.percentiles[strategy] ?? -1) - (a.percentiles[strategy] ?? -1);
    if (d !== 0) return d;
    if (a.price !== b.price) return a.price - b.price;
    return a.listing_id < b.listing_id ? -1 : a.listing_id > b.listing_id ? 1 : 0;
  });
}
