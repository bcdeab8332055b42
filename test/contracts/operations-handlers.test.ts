// The door-side step before underwriting: units and price from the input or a matching listing, else the
// units_required / price_required refusal (an answer, not an error).
import { describe, expect, it } from 'vitest';
import type { ListingRecord } from '../../src/ingest/loaders/listings.js';
import { matchListing } from '../../src/app/listing-match.js';
import { resolveSubject } from '../../src/app/underwrite-gate.js';

function listing(n: number, extra: Partial<ListingRecord> = {}): ListingRecord {
  return {
    listing_id: `L${String(n).padStart(3, '0')}`, address: `${n} Main St`, zip: n % 2 ? '60601' : '60602', price_usd: 100_000 + n * 10_000,
    url: `https://x/${n}`, lat: 41.8 + n / 1000, lon: -87.7, list_date: '2026-11-20', status: 'active', pin: null, county: 'cook', units: 2,
    beds: null, sqft: null, year_built: null, property_type: null, condition: null, history: [], ...extra,
  };
}
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
