// Subject resolution reads the records at the subject (issue 12): a listing by id, address or coordinates; a parcel by
// PIN, address or coordinates. Facts carry their true source (never `caller` when a record supplied them), a PIN
// resolves its units as the same parcel by lat/lon does, and an unknown id is property_not_found before anything else.
import { describe, expect, it } from 'vitest';
import { resolveSubject } from '../../../src/valuation/subject/subject.js';
import { useScoringCorpus } from '../../support/scoring-corpus.js';

const fx = useScoringCorpus();

describe('resolveSubject against the stored records', () => {
  it('a listing by id: price, units and condition from the listing, sourced `listing`', () => {
    const l = fx.store.getListings().find((x) => x.units !== null && x.condition !== null)!;
    const r = resolveSubject({ propertyId: l.listing_id }, fx.ctx.subjects);
    expect(r.subject).toMatchObject({ listing_id: l.listing_id, price: l.price_usd, price_source: 'listing', units: l.units, units_source: 'listing', condition_source: 'listing' });
  });

  it('a listing by its coordinates (to ~1 m) is that listing', () => {
    const l = fx.store.getListings()[3];
    const r = resolveSubject({ lat: l.lat, lon: l.lon }, fx.ctx.subjects);
    expect(r.subject.listing_id).toBe(l.listing_id);
    expect(r.subject.price_source).toBe('listing');
  });

  it('a PIN resolves the parcel and its units exactly as the same parcel by lat/lon', () => {
    const p = fx.ctx.subjects.parcels!;
    let row = 0;
    while (row < p.length && !(p.units[row] > 0)) row++;
    const byPin = resolveSubject({ propertyId: p.pin(row) }, fx.ctx.subjects);
    const byPoint = resolveSubject({ lat: p.lat[row], lon: p.lon[row] }, fx.ctx.subjects);
    expect(byPin.subject.units).toBe(p.units[row]);
    expect(byPin.subject.units_source).toBe('parcel_record');
    if (byPoint.subject.listing_id === null) expect(byPoint.subject).toEqual(byPin.subject);
  });

  it('caller facts win and say `caller`', () => {
    const l = fx.store.getListings()[0];
    const r = resolveSubject({ propertyId: l.listing_id, price: 123_000, units: 3 }, fx.ctx.subjects);
    expect(r.subject).toMatchObject({ price: 123_000, price_source: 'caller', units: 3, units_source: 'caller' });
  });

  it('an unknown listing id or PIN is property_not_found', () => {
    expect(() => resolveSubject({ propertyId: 'LST-NOPE' }, fx.ctx.subjects)).toThrow(expect.objectContaining({ code: 'property_not_found' }));
    expect(() => resolveSubject({ propertyId: '99999999999999' }, fx.ctx.subjects)).toThrow(expect.objectContaining({ code: 'property_not_found' }));
  });
});
