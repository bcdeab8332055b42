// dedupeByAddress / capActive: same normalized street + ZIP is one property; the newest, then most complete, then
// smallest listing_id survives; the active cut keeps the newest 200.
import { describe, expect, it } from 'vitest';
import { addressKey, capActive, dedupeByAddress } from '../../src/listings/dedupe.js';
import { listing } from './support.js';

describe('dedupeByAddress', () => {
  it('treats address spellings that normalize alike (and the same ZIP) as one property', () => {
    expect(addressKey(listing('A', { address: '123 North Main Street, Chicago IL' }))).toBe(addressKey(listing('B', { address: '123 N. main st' })));
    expect(addressKey(listing('A', { address: '123 N Main St', zip: '60622' }))).not.toBe(addressKey(listing('B', { address: '123 N Main St', zip: '60647' })));
  });

  it('keeps the newest listing of an address and names it as the duplicate target', () => {
    const older = listing('L1', { address: '10 W Oak St', list_date: '2026-10-01' });
    const newer = listing('L2', { address: '10 West Oak Street', list_date: '2026-11-01' });
    const r = dedupeByAddress([older, newer]);
    expect(r.kept.map((l) => l.listing_id)).toEqual(['L2']);
    expect(r.dropped).toEqual([{ listing: older, duplicateOf: 'L2' }]);
  });

  it('on the same date keeps the more complete record, then the smaller listing_id', () => {
    const sparse = listing('L1', { address: '5 E Elm St', sqft: null, beds: null });
    const full = listing('L9', { address: '5 E Elm St' });
    expect(dedupeByAddress([sparse, full]).kept[0].listing_id).toBe('L9');
    const twinA = listing('L3', { address: '7 E Elm St' });
    const twinB = listing('L4', { address: '7 E Elm St' });
    expect(dedupeByAddress([twinB, twinA]).kept[0].listing_id).toBe('L3');
  });

  it('never merges listings without an address', () => {
    expect(dedupeByAddress([listing('A', { address: '' }), listing('B', { address: '' })]).kept).toHaveLength(2);
  });
});

describe('capActive', () => {
  it('keeps the newest `max` listings', () => {
    const rows = [listing('A', { list_date: '2026-01-01' }), listing('B', { list_date: '2026-03-01' }), listing('C', { list_date: '2026-02-01' })];
    const r = capActive(rows, 2);
    expect(r.active.map((l) => l.listing_id)).toEqual(['B', 'C']);
    expect(r.overflow.map((l) => l.listing_id)).toEqual(['A']);
  });
});
