// The listing that matches an underwriting subject (it may supply units and price): by listing id, else the
// normalized street address (valuation/subject.ts, the listings dedupe's rule), else lat/lon agreeing to ~1 m.
import type { ListingRecord } from '../ingest/loaders/listings.js';
import { DOORS } from '../registry/groups/doors.js';
import { normalizeAddress } from '../valuation/subject/subject.js';

export type SubjectKey = { property_id?: string; address?: string; lat?: number; lon?: number };

export function matchListing(rows: readonly ListingRecord[], s: SubjectKey): ListingRecord | null {
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
