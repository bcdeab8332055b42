// Dedupe of the listings feed by address, and the active-inventory cut (at most 200, newest first).
// Rule: two listings are the same property when their normalized street address and ZIP match (valuation/subject.ts
// normalizeAddress, USPS-style). The survivor is the newest list_date; on a tie the most complete record (most known
// fields among pin, units, beds, sqft, year_built, property_type, condition); then the smallest listing_id, so the
// choice never depends on feed order. Listings without an address cannot be matched and are kept as they are.
import type { ListingRecord } from '../ingest/loaders/listings.js';
import { normalizeAddress } from '../valuation/subject/subject.js';

export type DedupeResult<T extends ListingRecord> = {
  kept: T[];
  /** Each dropped listing with the listing_id that survived in its place. */
  dropped: Array<{ listing: T; duplicateOf: string }>;
};

export function addressKey(l: Pick<ListingRecord, 'address' | 'zip' | 'listing_id'>): string {
  const street = normalizeAddress(l.address ?? '');
  return street === '' ? `id:${l.listing_id}` : `${street}|${l.zip}`;
}

export function completeness(l: ListingRecord): number {
  const fields = [l.pin, l.units, l.beds, l.sqft, l.year_built, l.property_type, l.condition];
  return fields.filter((f) => f !== null && f !== undefined).length;
}

/** Negative when `a` should survive over `b`. */
export function preferListing(a: ListingRecord, b: ListingRecord): number {
  if (a.list_date !== b.list_date) return a.list_date > b.list_date ? -1 : 1;
  const c = completeness(b) - completeness(a);
  if (c !== 0) return c;
  return a.listing_id < b.listing_id ? -1 : a.listing_id > b.listing_id ? 1 : 0;
}

export function dedupeByAddress<T extends ListingRecord>(listings: readonly T[]): DedupeResult<T> {
  const groups = new Map<string, T[]>();
  for (const l of listings) {
    const k = addressKey(l);
    const g = groups.get(k);
    if (g) g.push(l);
    else groups.set(k, [l]);
  }
  const kept: T[] = [];
  const dropped: DedupeResult<T>['dropped'] = [];
  for (const g of groups.values()) {
    const [best, ...rest] = [...g].sort(preferListing);
    kept.push(best);
    for (const l of rest) dropped.push({ listing: l, duplicateOf: best.listing_id });
  }
  return { kept, dropped };
}

/** The active inventory: newest first (same order as the dedupe preference), at most `max`; the rest is overflow. */
export function capActive<T extends ListingRecord>(listings: readonly T[], max: number): { active: T[]; overflow: T[] } {
  const sorted = [...listings].sort(preferListing);
  return { active: sorted.slice(0, max), overflow: sorted.slice(max) };
}
