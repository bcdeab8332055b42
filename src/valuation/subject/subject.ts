// Subject resolution: lat/lon, address (parcels and listings, normalized) or property id (PIN or listing_id) → the
// spec's Subject with *_source fields, its tract, county and calibration segment. Unknown fields stay null: nothing
// here ever reads a comp. Outside every mapped tract the valuation is suppressed (outside_mapped_tracts).
import type { Subject } from '../../contracts/subject.js';
import { AppError } from '../../errors/app-error.js';
import type { ListingRecord } from '../../ingest/loaders/listings.js';
import type { TractRecord } from '../../ingest/loaders/tracts.js';
import { DOORS } from '../../registry/groups/doors.js';
import { CONDITION_CODE, PTYPE_CODE } from '../../store/columns.js';
import { TractLocator } from '../../store/tract-locator.js';
import { segmentKey, type SegmentKey, type SegmentPtype } from '../decide/segment.js';
import { findParcelNear, type ParcelView } from './parcel-view.js';

export type SubjectInput = {
  lat?: number | null;
  lon?: number | null;
  address?: string | null;
  /** A PIN (Cook 14 / Lake 10 digits, dashes allowed) or a listing_id. */
  propertyId?: string | null;
  /** Row of the parcel table (bulk scoring of every parcel: no PIN map needed); wins over propertyId/address/lat-lon. */
  parcelRow?: number | null;
  price?: number | null;
  units?: number | null;
  propType?: SegmentPtype | null;
  /** Used only when neither the caller, the records nor the unit count give a type (get_comps defaults to mf2_4). */
  defaultPropType?: SegmentPtype | null;
  beds?: number | null;
  sqft?: number | null;
  yearBuilt?: number | null;
  condition?: 'distressed' | 'dated' | 'renovated' | 'new' | null;
};

export type SubjectData = {
  tracts: readonly TractRecord[];
  locator: TractLocator;
  parcels: ParcelView | null;
  listings: readonly ListingRecord[];
  listingById: Map<string, ListingRecord>;
  listingByAddress: Map<string, ListingRecord>;
  /** Listings by coordinates rounded to listing_match_coord_decimals (~1 m): a lat/lon at a listing is that listing. */
  listingByCoord: Map<string, ListingRecord>;
};

const coordKey = (lat: number, lon: number): string => {
  const d = DOORS.v.listing_match_coord_decimals;
  return `${lat.toFixed(d)},${lon.toFixed(d)}`;
};

export type ResolvedSubject = {
  subject: Subject;
  tract: TractRecord | null;
  /** PTYPE_CODE the kernel and the segment use; null when neither the record nor the caller says. */
  ptypeCode: number | null;
  segment: SegmentKey | null;
  /** PIN of the subject's parcel, or null. */
  parcelPin: string | null;
  /** Its row in the parcel table = its parcel_idx in the sales snapshot (its own sales are never its comps), or null. */
  parcelRow: number | null;
  /** ZIP from the listing or the parcel record (rent lookup), or null. */
  zip: string | null;
};

const SUFFIX: Record<string, string> = { STREET: 'ST', AVENUE: 'AVE', BOULEVARD: 'BLVD', DRIVE: 'DR', ROAD: 'RD', PLACE: 'PL', COURT: 'CT', LANE: 'LN', TERRACE: 'TER', PARKWAY: 'PKWY' };
const DIRECTION: Record<string, string> = { NORTH: 'N', SOUTH: 'S', EAST: 'E', WEST: 'W' };

/** Street part of an address, upper case, punctuation dropped, suffixes and directions abbreviated (USPS style). */
export function normalizeAddress(address: string): string {
  const street = address.split(',')[0] ?? '';
  return street
    .toUpperCase()
    .replace(/[.#]/g, ' ')
    .replace(/[^A-Z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => SUFFIX[w] ?? DIRECTION[w] ?? (w === 'APT' || w === 'UNIT' ? 'UNIT' : w))
    .join(' ');
}

export function buildSubjectData(tracts: readonly TractRecord[], parcels: ParcelView | null, listings: readonly ListingRecord[]): SubjectData {
  return { tracts, locator: new TractLocator(tracts.map((t) => t.polygon)), parcels, ...listingLookup(listings) };
}

/** The listing part of SubjectData: by id and by normalized street address (first listing of an address wins). */
export function listingLookup(listings: readonly ListingRecord[]): Pick<SubjectData, 'listings' | 'listingById' | 'listingByAddress' | 'listingByCoord'> {
  const listingByAddress = new Map<string, ListingRecord>();
  const listingByCoord = new Map<string, ListingRecord>();
  for (const l of listings) {
    const key = normalizeAddress(l.address);
    if (!listingByAddress.has(key)) listingByAddress.set(key, l);
    if (Number.isFinite(l.lat) && Number.isFinite(l.lon) && !listingByCoord.has(coordKey(l.lat, l.lon))) listingByCoord.set(coordKey(l.lat, l.lon), l);
  }
  return { listings, listingById: new Map(listings.map((l) => [l.listing_id, l])), listingByAddress, listingByCoord };
}

type Found = { listing: ListingRecord | null; parcelRow: number | null };

function findRecords(input: SubjectInput, d: SubjectData): Found {
  const pinRow = (pin: string | null | undefined): number | null => (pin && d.parcels ? d.parcels.rowOfPin(pin) : null);
  if (input.parcelRow != null) {
    if (!d.parcels || !Number.isInteger(input.parcelRow) || input.parcelRow < 0 || input.parcelRow >= d.parcels.length) throw new AppError('property_not_found', `no parcel row ${input.parcelRow}`);
    return { listing: null, parcelRow: input.parcelRow };
  }
  if (input.propertyId) {
    const listing = d.listingById.get(input.propertyId) ?? null;
    if (listing) return { listing, parcelRow: pinRow(listing.pin) };
    const row = pinRow(input.propertyId.replace(/-/g, '').trim());
    if (row === null) throw new AppError('property_not_found', `no parcel or listing has id ${input.propertyId}`);
    return { listing: null, parcelRow: row };
  }
  if (input.address) {
    const key = normalizeAddress(input.address);
    const listing = d.listingByAddress.get(key) ?? null;
    if (listing) return { listing, parcelRow: pinRow(listing.pin) };
    const row = d.parcels?.rowOfAddress(key) ?? null;
    if (row !== null) return { listing: null, parcelRow: row };
    if (input.lat == null || input.lon == null) throw new AppError('property_not_found', `no parcel or listing matches the address ${input.address}`);
  }
  if (input.lat == null || input.lon == null) throw new AppError('validation_failed', 'a subject needs lat/lon, an address or a property id');
  const atListing = d.listingByCoord.get(coordKey(input.lat, input.lon)) ?? null;
  if (atListing) return { listing: atListing, parcelRow: pinRow(atListing.pin) ?? (d.parcels ? findParcelNear(d.parcels, input.lat, input.lon) : null) };
  return { listing: null, parcelRow: d.parcels ? findParcelNear(d.parcels, input.lat, input.lon) : null };
}

/** value + its source: caller first, then the listing, then the parcel record; null/unknown when none knows it. */
function pick<T>(caller: T | null | undefined, listing: T | null | undefined, parcel: T | null | undefined): [T | null, string | null] {
  if (caller != null) return [caller, 'caller'];
  if (listing != null) return [listing, 'listing'];
  if (parcel != null) return [parcel, 'parcel_record'];
  return [null, null];
}

const PTYPE_NAME: Record<number, SegmentPtype> = { [PTYPE_CODE.sfh]: 'sfh', [PTYPE_CODE.mf2_4]: 'mf2_4', [PTYPE_CODE.condo]: 'condo' };
const CONDITION_NAME: Record<number, string> = { [CONDITION_CODE.distressed]: 'distressed', [CONDITION_CODE.dated]: 'dated', [CONDITION_CODE.renovated]: 'renovated', [CONDITION_CODE.new]: 'new' };

function listingPtype(l: ListingRecord | null): SegmentPtype | null {
  const t = l?.property_type?.toLowerCase() ?? null;
  return t === 'sfh' || t === 'mf2_4' || t === 'condo' ? t : null;
}

/** Property type: caller, listing or parcel record; else from the unit count (1 → sfh, 2–4 → mf2_4); else the default. */
function resolvePtype(input: SubjectInput, l: ListingRecord | null, p: ParcelView | null, row: number | null, units: number | null): SegmentPtype | null {
  const [known] = pick(input.propType, listingPtype(l), row !== null && p ? PTYPE_NAME[p.ptype[row]] : null);
  if (known) return known;
  if (units === 1) return 'sfh';
  if (units !== null && units >= 2 && units <= 4) return 'mf2_4';
  return input.defaultPropType ?? null;
}

/**
 * The subject's condition when the caller or the listing states it, else null. A parcel record's condition is the
 * ingest's estimate from sale prices (src/ingest/condition/): it is shown (`condition`, `condition_source:
 * parcel_record`) but nothing downstream takes it as fact — the as-is strata would select on price with it, and rehab
 * scope and rent then say the condition is unknown (`default_condition_unknown`, `condition_unknown_priced_as_dated`).
 */
export function statedCondition(s: Pick<Subject, 'condition' | 'condition_source'>): string | null {
  return s.condition_source === 'caller' || s.condition_source === 'listing' ? (s.condition ?? null) : null;
}

/** Resolves the subject; throws property_not_found / validation_failed for a subject that cannot be located at all. */
export function resolveSubject(input: SubjectInput, d: SubjectData): ResolvedSubject {
  const { listing: l, parcelRow: row } = findRecords(input, d);
  const p = d.parcels;
  const at = <T>(f: (p: ParcelView, r: number) => T | null): T | null => (p && row !== null ? f(p, row) : null);
  const lat = input.lat ?? l?.lat ?? at((q, r) => q.lat[r]);
  const lon = input.lon ?? l?.lon ?? at((q, r) => q.lon[r]);
  if (lat == null || lon == null) throw new AppError('validation_failed', 'the subject has no coordinates');
  const ti = d.locator.locate(lon, lat);
  const tract = ti >= 0 ? d.tracts[ti] : null;
  const [price, priceSource] = pick(input.price, l?.price_usd, null);
  const [units, unitsSource] = pick(input.units, l?.units, at((q, r) => (q.units[r] > 0 ? q.units[r] : null)));
  const [condition, conditionSource] = pick<string>(input.condition, l?.condition, at((q, r) => CONDITION_NAME[q.condition[r]] ?? null));
  const ptype = resolvePtype(input, l, p, row, units);
  const pin = l?.pin ?? at((q, r) => q.pin(r));
  const subject: Subject = {
    key: l ? `listing:${l.listing_id}` : pin ? `pin:${pin}` : `latlon:${lat.toFixed(6)},${lon.toFixed(6)}`,
    listing_id: l?.listing_id ?? null,
    address: l?.address ?? at((q, r) => q.address(r)) ?? input.address ?? null,
    lat,
    lon,
    tract_geoid: tract?.geoid ?? null,
    county: tract?.county ?? 'unknown',
    price,
    price_source: priceSource,
    units,
    units_source: unitsSource,
    beds: pick(input.beds, l?.beds, at((q, r) => (q.beds[r] >= 0 ? q.beds[r] : null)))[0],
    sqft: pick(input.sqft, l?.sqft, at((q, r) => (q.sqft[r] > 0 ? q.sqft[r] : null)))[0],
    year_built: pick(input.yearBuilt, l?.year_built, at((q, r) => (q.yearBuilt[r] > 0 ? q.yearBuilt[r] : null)))[0],
    property_type: ptype,
    condition,
    condition_source: conditionSource ?? 'unknown',
  };
  return { subject, tract, ptypeCode: ptype === null ? null : PTYPE_CODE[ptype], segment: ptype && tract ? segmentKey(ptype, tract.muni) : null, parcelPin: pin, parcelRow: row, zip: l?.zip || at((q, r) => q.zip(r)) };
}
