// searchInventory / searchDeals: only active, point-supported, current-model rows with a percentile for the strategy;
// ranked by that percentile; filters, the fields allowlist and the cursor; search_deals' top-quartile default.
import { describe, expect, it } from 'vitest';
import { InventorySearchOutputSchema } from '../../src/contracts/tools.js';
import { AppError } from '../../src/errors/app-error.js';
import { searchDeals, searchInventory } from '../../src/listings/inventory.js';
import { buildScoredListing, type ScoredListing } from '../../src/listings/rows.js';
import type { SubjectScore } from '../../src/scoring/score-subject.js';
import type { Strategy } from '../../src/underwriting/types.js';
import { listing, pointScore, rangeScore } from './support.js';

function row(id: string, score: SubjectScore, pct: Partial<Record<Strategy, number | null>>, over: Partial<ScoredListing> = {}): ScoredListing {
  const r = buildScoredListing({
    listing: listing(id, { price_usd: 100_000 * (Number(id.replace(/\D/g, '')) || 1) }), score, percentiles: { flip: null, brrrr: null, hold: null, house_hack: null, ...pct },
    runId: 'run-1', runKind: 'manual', scoredAt: '2026-11-21T13:00:00.000Z', firstSeenAt: '2026-11-21T13:00:00.000Z', dedupeKey: id,
  });
  return { ...r, ...over };
}

const ROWS: ScoredListing[] = [
  row('L1', pointScore('L1', { brrrr: 0.5 }), { brrrr: 40 }),
  row('L2', pointScore('L2', { brrrr: 0.9 }), { brrrr: 90 }),
  row('L3', pointScore('L3', { brrrr: 0.7 }), { brrrr: 70 }, { lat: 42.3, lon: -87.9, zip: '60045' }),
  row('L4', rangeScore('L4'), {}),
  row('L5', pointScore('L5', { brrrr: 0.95 }), { brrrr: 95 }, { model_version: 'avm-old' }),
  row('L6', pointScore('L6', { flip: 0.5 }), { flip: 50 }),
  row('L7', pointScore('L7', { brrrr: 0.99 }), { brrrr: 99 }, { status: 'duplicate' }),
];

describe('searchInventory', () => {
  it('ranks eligible rows by the strategy percentile and excludes range-only, stale, duplicate and unscored rows', () => {
    const page = searchInventory(ROWS, { strategy: 'brrrr' });
    expect(page.results.map((r) => r.listing_id)).toEqual(['L2', 'L3', 'L1']);
    expect(page.excluded).toEqual({ not_active: 1, not_point: 1, stale_model: 1, unscored_for_strategy: 1, filtered: 0 });
    expect(InventorySearchOutputSchema.safeParse(page).success).toBe(true);
  });

  it('applies bbox, ZIP, min_percentile, max_price and min_confidence filters', () => {
    expect(searchInventory(ROWS, { bbox: '-88,42,-87.8,42.5' }).results.map((r) => r.listing_id)).toEqual(['L3']);
    expect(searchInventory(ROWS, { geography: '60045' }).results.map((r) => r.listing_id)).toEqual(['L3']);
    expect(searchInventory(ROWS, { min_percentile: 70 }).results.map((r) => r.listing_id)).toEqual(['L2', 'L3']);
    expect(searchInventory(ROWS, { max_price: 150_000 }).results.map((r) => r.listing_id)).toEqual(['L1']);
    expect(searchInventory(ROWS, { min_confidence: 61 }).total).toBe(0); // every point fixture has confidence 60
    expect(searchInventory(ROWS, { min_confidence: 61 }).empty_reason).toBe('filters too tight');
  });

  it('pages with a cursor and projects only the allowed fields asked for', () => {
    const first = searchInventory(ROWS, { limit: 2, fields: 'listing_id,percentile' });
    expect(first.results).toEqual([{ listing_id: 'L2', percentile: 90 }, { listing_id: 'L3', percentile: 70 }]);
    const second = searchInventory(ROWS, { limit: 2, fields: 'listing_id', cursor: first.next_cursor as string });
    expect(second.results).toEqual([{ listing_id: 'L1' }]);
    expect(second.next_cursor).toBeNull();
    expect(() => searchInventory(ROWS, { fields: 'listing_id,owner_name' })).toThrow(AppError);
    expect(() => searchInventory(ROWS, { cursor: 'garbage' })).toThrow(/cursor/);
    expect(() => searchInventory(ROWS, { limit: 101 })).toThrow(AppError);
  });
});

describe('searchDeals', () => {
  it('defaults min_score to the top-quartile cutoff (75) and limit to 10', () => {
    expect(searchDeals(ROWS, {}, new Date('2026-11-21T14:00:00Z')).results.map((r) => r.listing_id)).toEqual(['L2']);
    expect(searchDeals(ROWS, { since_hours: 0.5 }, new Date('2026-11-21T14:00:00Z')).total).toBe(0);
  });
});
