// Subject resolution: by lat/lon, address and property id; field sources; unknown fields stay null (never a comp's).
import { tableFromArrays } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { ListingRecord } from '../../../src/ingest/loaders/listings.js';
import { parcelViewFromArrow } from '../../../src/valuation/subject/parcel-view.js';
import { buildSubjectData, normalizeAddress, resolveSubject } from '../../../src/valuation/subject/subject.js';
import { valueProperty } from '../../../src/valuation/value.js';
import { SUBJECT, calTable, contextOf, renovatedRows, salesOf, tractAround } from '../tier1-fixture.js';

const parcels = parcelViewFromArrow(
  tableFromArrays({
    pin: ['17011000000001', '17011000000002'],
    county: Uint8Array.of(1, 1), lat: Float64Array.of(SUBJECT.lat, SUBJECT.lat + 0.01), lon: Float64Array.of(SUBJECT.lon, SUBJECT.lon),
    zip: ['60622', '60622'], tract_idx: Uint16Array.of(0, 0), class: ['211', '202'], ptype: Uint8Array.of(1, 0), units: Uint8Array.of(2, 1),
    sqft: Float64Array.of(2400, NaN), beds: Int8Array.of(5, -1), year_built: Int16Array.of(1912, -1), condition: Uint8Array.of(1, 255),
    address: ['1200 N Western Avenue', '1300 N Western Ave'],
  }),
  normalizeAddress,
);
const listing: ListingRecord = {
  listing_id: 'LST-1', address: '1300 North Western Ave., Chicago, IL', zip: '60622', price_usd: 350_000, url: 'u', lat: SUBJECT.lat + 0.01, lon: SUBJECT.lon,
  list_date: '2025-10-01', status: 'active', pin: '17011000000002', county: 'cook', units: 1, beds: 3, sqft: 1500, year_built: null, property_type: 'sfh', condition: 'renovated', history: [],
};
const data = buildSubjectData([tractAround()], parcels, [listing]);

describe('subject resolution', () => {
  it('normalizes addresses (case, punctuation, suffixes, directions, city part)', () => {
    expect(normalizeAddress('1300 North Western Ave., Chicago, IL')).toBe('1300 N WESTERN AVE');
    expect(normalizeAddress('1300 n western avenue')).toBe('1300 N WESTERN AVE');
  });

  it('by PIN: parcel-record fields with their sources; segment from ptype and the Chicago tract', () => {
    const r = resolveSubject({ propertyId: '17-01-100-000-0001' }, data);
    expect(r.subject).toMatchObject({ key: 'pin:17011000000001', units: 2, units_source: 'parcel_record', sqft: 2400, beds: 5, year_built: 1912, property_type: 'mf2_4', condition: 'dated', condition_source: 'parcel_record', price: null, price_source: null, tract_geoid: '17031000100', county: 'cook' });
    expect(r.segment).toBe('mf2_4_city');
  });

  it('by address: the listing wins over the parcel record, the caller over both', () => {
    const r = resolveSubject({ address: '1300 n western avenue', beds: 4 }, data);
    expect(r.subject).toMatchObject({ key: 'listing:LST-1', listing_id: 'LST-1', price: 350_000, price_source: 'listing', sqft: 1500, beds: 4, condition: 'renovated', condition_source: 'listing' });
  });

  it('by listing id and by lat/lon of a parcel (same lot)', () => {
    expect(resolveSubject({ propertyId: 'LST-1' }, data).subject.listing_id).toBe('LST-1');
    const r = resolveSubject({ lat: SUBJECT.lat + 0.00002, lon: SUBJECT.lon }, data);
    expect(r.subject.key).toBe('pin:17011000000001');
    expect(r.subject.lat).toBe(SUBJECT.lat + 0.00002); // the caller's point is kept
  });

  it('an unknown id or address is property_not_found; nothing to locate is validation_failed', () => {
    expect(() => resolveSubject({ propertyId: '99999999999999' }, data)).toThrow(expect.objectContaining({ code: 'property_not_found' }));
    expect(() => resolveSubject({ address: '1 Nowhere St' }, data)).toThrow(expect.objectContaining({ code: 'property_not_found' }));
    expect(() => resolveSubject({}, data)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });

  it('a bare point far from any parcel keeps every characteristic null, even when comps know theirs', () => {
    const ctx = contextOf(salesOf(renovatedRows(8)), { calibration: calTable('sfh_city', 'point') });
    const v = valueProperty({ lat: SUBJECT.lat, lon: SUBJECT.lon, units: 1 }, ctx);
    expect(v.arv.comps?.length).toBe(8);
    expect(v.subject).toMatchObject({ sqft: null, beds: null, year_built: null, condition: null, condition_source: 'unknown', price: null, units: 1, units_source: 'caller', property_type: 'sfh' });
    expect(v.artifact?.subject).toEqual(v.subject);
  });

  it('units and type unknown: units_required', () => {
    const ctx = contextOf(salesOf(renovatedRows(8)));
    expect(() => valueProperty({ lat: SUBJECT.lat, lon: SUBJECT.lon }, ctx)).toThrow(expect.objectContaining({ code: 'units_required' }));
  });

  it('get_comps: prop_type defaults to mf2_4 only when the subject type is otherwise unknown', () => {
    const ctx = contextOf(salesOf(renovatedRows(3)));
    const comps = (input: Parameters<typeof valueProperty>[0]) => valueProperty({ ...input, defaultPropType: 'mf2_4' }, ctx);
    expect(comps({ lat: SUBJECT.lat, lon: SUBJECT.lon }).subject.property_type).toBe('mf2_4');
    expect(comps({ lat: SUBJECT.lat, lon: SUBJECT.lon, propType: 'sfh' }).subject.property_type).toBe('sfh');
    ctx.subjects = data; // the listing LST-1 is an sfh
    expect(comps({ address: '1300 N Western Ave' }).subject.property_type).toBe('sfh');
  });
});
