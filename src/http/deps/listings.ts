// Listing selection for the doors: the public listing list (active, deduped by address, at most 200) and the
// listing that matches a subject (which may supply units and price to underwriting). Selection only, no scoring.
import type { ListingsOutput } from '../../contracts/tools.js';
import type { ListingRecord } from '../../ingest/loaders/listings.js';
import { DOORS } from '../../registry/groups/doors.js';

/** Fields the listings run writes onto a stored listing once it is scored (absent before the first run). */
export type ListingScoreFields = { deal_score?: number | null; model_version?: string };
export type StoredListing = ListingRecord & ListingScoreFields;

export function normalizeAddress(a: string): string {
  return a.toLowerCase().replace(/[.,#]/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Active listings, one per normalized address (the most recently listed wins, then the lowest listing_id), newest
 * first, at most `listings_max`.
 */
export function publicListings(rows: readonly StoredListing[], now: Date): ListingsOutput {
  const byAddress = new Map<string, StoredListing>();
  for (const r of rows) {
    if (r.status !== 'active') continue;
    const key = normalizeAddress(r.address);
    const prior = byAddress.get(key);
    if (!prior || r.list_date > prior.list_date || (r.list_date === prior.list_date && r.listing_id < prior.listing_id)) byAddress.set(key, r);
  }
  const chosen = [...byAddress.values()]
    .sort((a, b) => b.list_date.localeCompare(a.list_date) || a.listing_id.localeCompare(b.listing_id))
    .slice(0, DOORS.v.listings_max);
  return {
    as_of: now.toISOString(),
    count: chosen.length,
    listings: chosen.map((r) => ({
      listing_id: r.listing_id,
      address: r.address,
      zip: r.zip,
      price: r.price_usd,
      url: r.url,
      units: r.units,
      deal_score: typeof r.deal_score === 'number' ? r.deal_score : null,
      model_version: typeof r.model_version === 'string' ? r.model_version : null,
    })),
  };
}

export type SubjectKey = { property_id?: string; address?: string; lat?: number; lon?: number };

/** The active listing naming this subject: by listing id, else normalized address, else lat/lon to ~1 m. */
export function matchListing(rows: readonly StoredListing[], s: SubjectKey): StoredListing | null {
  const active = rows.filter((r) => r.status === 'active');
  if (s.property_id !== undefined) {
    const byId = active.find((r) => r.listing_id === s.property_id);
    if (byId) return byId;
  }
  if (s.address !== undefined) {
    const key = normalizeAddress(s.address);
    const byAddr = active.find((r) => normalizeAddress(r.address) === key);
    if (byAddr) return byAddr;
  }
  if (s.lat !== undefined && s.lon !== undefined) {
    const d = DOORS.v.listing_match_coord_decimals;
    const same = (a: number, b: number): boolean => a.toFixed(d) === b.toFixed(d);
    return active.find((r) => same(r.lat, s.lat!) && same(r.lon, s.lon!)) ?? null;
  }
  return null;
}
