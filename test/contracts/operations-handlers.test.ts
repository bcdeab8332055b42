// The door-side selection behind the handlers: inventory search (eligibility, ranking, fields, cursor), the
// search_deals top-quartile cutoff, public listings, and the units_required / price_required refusals.
import { describe, expect, it } from 'vitest';
import { InventorySearchInputSchema, SearchDealsInputSchema } from '../../src/contracts/inputs.js';
import { InventorySearchOutputSchema, SearchDealsOutputSchema } from '../../src/contracts/tools.js';
import { decodeCursor, encodeCursor, searchDeals, searchInventory, topQuartileCutoff } from '../../src/http/deps/inventory.js';
import { matchListing, publicListings, type StoredListing } from '../../src/http/deps/listings.js';
import { resolveSubject } from '../../src/http/deps/underwrite-gate.js';
import { MODEL_VERSION } from '../../src/registry/versions.js';

const NOW = new Date('2026-11-21T12:00:00Z');

function listing(n: number, extra: Partial<StoredListing> & Record<string, unknown> = {}): StoredListing {
  return {
    listing_id: `L${String(n).padStart(3, '0')}`, address: `${n} Main St`, zip: n % 2 ? '60601' : '60602', price_usd: 100_000 + n * 10_000,
    url: `https://x/${n}`, lat: 41.8 + n / 1000, lon: -87.7, list_date: '2026-11-20', status: 'active', pin: null, county: 'cook', units: 2,
    beds: null, sqft: null, year_built: null, property_type: null, condition: null, history: [], ...extra,
  } as StoredListing;
}
/** Listing n scored with brrrr percentile 10·n and confidence 50 + n (both chosen so ranks are obvious). */
function scored(n: number, extra: Record<string, unknown> = {}): StoredListing {
  return listing(n, { model_version: MODEL_VERSION, point_actionable: true, percentiles: { brrrr: 10 * n, flip: null }, confidence: 50 + n, ...extra } as never);
}

describe('searchInventory', () => {
  const rows = [scored(1), scored(2), scored(3), scored(4), scored(5), listing(6), scored(7, { model_version: 'old' }), scored(8, { point_actionable: false }), scored(9, { status: 'sold' })];
  const search = (raw: Record<string, unknown>) => InventorySearchOutputSchema.parse(searchInventory(rows, InventorySearchInputSchema.parse(raw), NOW));

  it('keeps only active, current-model, point-actionable rows, ranked by percentile descending', () => {
    const out = search({});
    expect(out.results.map((r) => r.listing_id)).toEqual(['L005', 'L004', 'L003', 'L002', 'L001']);
    expect(out.total).toBe(5);
    expect(out.model_versions.model).toBe(MODEL_VERSION);
    // confidence of a page = lowest row confidence on it: L001 has 50 + 1 = 51.
    expect(out.confidence).toBe(51);
  });

  it('applies min_percentile, max_price, min_confidence and geography filters', () => {
    expect(search({ min_percentile: 30 }).results.map((r) => r.listing_id)).toEqual(['L005', 'L004', 'L003']);
    // prices are 100,000 + n·10,000: at most 120,000 keeps n = 1, 2.
    expect(search({ max_price: 120_000 }).results.map((r) => r.listing_id)).toEqual(['L002', 'L001']);
    expect(search({ min_confidence: 54 }).results.map((r) => r.listing_id)).toEqual(['L005', 'L004']);
    expect(search({ geography: '60602' }).results.map((r) => r.listing_id)).toEqual(['L004', 'L002']);
  });

  it('pages with an opaque cursor until next_cursor is null', () => {
    const p1 = search({ limit: 2 });
    expect(p1.results.map((r) => r.listing_id)).toEqual(['L005', 'L004']);
    const p2 = search({ limit: 2, cursor: p1.next_cursor });
    expect(p2.results.map((r) => r.listing_id)).toEqual(['L003', 'L002']);
    const p3 = search({ limit: 2, cursor: p2.next_cursor });
    expect(p3.results.map((r) => r.listing_id)).toEqual(['L001']);
    expect(p3.next_cursor).toBeNull();
  });

  it('refuses a forged cursor or one from other filters with invalid_cursor', () => {
    expect(() => search({ cursor: 'not a cursor!' })).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    const p1 = search({ limit: 2 });
    expect(() => search({ limit: 2, min_percentile: 20, cursor: p1.next_cursor })).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    expect(() => decodeCursor(encodeCursor(-1, 'k'), 'k')).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });

  it('returns only the fields asked for', () => {
    expect(search({ fields: 'listing_id,price', limit: 1 }).results).toEqual([{ listing_id: 'L005', price: 150_000 }]);
  });

  it('answers an empty result, saying why, when nothing is scored yet', () => {
    const out = InventorySearchOutputSchema.parse(searchInventory([listing(1)], InventorySearchInputSchema.parse({}), NOW));
    expect(out.results).toEqual([]);
    expect(out.empty_reason).toMatch(/no_scored_inventory/);
    expect(out.confidence).toBeNull();
  });
});

describe('searchDeals', () => {
  it('defaults the cutoff to the live top quartile (nearest rank) and returns top tracts', () => {
    // eligible percentiles 10..50: nearest-rank 75th = sorted[ceil(0.75·5) − 1] = sorted[3] = 40.
    expect(topQuartileCutoff([10, 20, 30, 40, 50])).toBe(40);
    const rows = [1, 2, 3, 4, 5].map((n) => scored(n));
    const out = SearchDealsOutputSchema.parse(searchDeals(rows, SearchDealsInputSchema.parse({}), [{ geoid: '17031010100', muni: 'Chicago', score: 90 }], NOW));
    expect(out.min_score_applied).toBe(40);
    expect(out.results.map((r) => r.listing_id)).toEqual(['L005', 'L004']);
    expect(out.top_tracts).toHaveLength(1);
    expect(out.deprecated).toBe(true);
  });
});

describe('publicListings', () => {
  it('keeps active listings, one per address (newest listing wins), deal_score null when unscored', () => {
    const rows = [listing(1), listing(2, { address: '1 main st.', list_date: '2026-11-21' }), listing(3, { status: 'pending' })];
    const out = publicListings(rows, NOW);
    expect(out.listings.map((l) => l.listing_id)).toEqual(['L002']);
    expect(out.listings[0].deal_score).toBeNull();
  });
});

describe('resolveSubject', () => {
  const rows = [listing(1, { units: 3 }), listing(2, { units: null })];
  it('takes units and price from a matching listing', () => {
    expect(resolveSubject(rows, { address: '1 MAIN ST' }, true)).toEqual({ ok: true, subject: { units: 3, priceUsd: 110_000, listingId: 'L001' } });
  });
  it('answers units_required when neither the input nor a listing gives units', () => {
    expect(resolveSubject(rows, { property_id: 'L002' }, false)).toMatchObject({ ok: false, refusal: { code: 'units_required' } });
    expect(resolveSubject(rows, { lat: 1, lon: 1 }, false)).toMatchObject({ ok: false, refusal: { code: 'units_required' } });
  });
  it('answers price_required when a price is needed and unknown', () => {
    expect(resolveSubject([], { lat: 41.9, lon: -87.7, units: 2 }, true)).toMatchObject({ ok: false, refusal: { code: 'price_required' } });
    expect(resolveSubject([], { lat: 41.9, lon: -87.7, units: 2 }, false)).toMatchObject({ ok: true });
  });
  it('matches a listing by coordinates to 5 decimals', () => {
    expect(matchListing(rows, { lat: 41.801, lon: -87.7 })?.listing_id).toBe('L001');
    expect(matchListing(rows, { lat: 41.80101, lon: -87.7 })).toBeNull();
  });
});
