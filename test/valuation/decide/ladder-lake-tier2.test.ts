// Tier 2 where it is calibrated (issue 14 item 5): Lake sales form their own hedonic segments (`<ptype>_lake`), a
// Lake subject without Tier 1 gets a Tier-2 range from a display-eligible Lake segment (never from a Cook fit), and a
// subject left without a Tier-1 or Tier-2 answer says why Tier 2 did not step in.
import { describe, expect, it } from 'vitest';
import { VALUATION_WARNINGS } from '../../../src/contracts/valuation.js';
import { decideValuationDisplay } from '../../../src/valuation/decide/ladder.js';
import { hedonicSegmentCounty, hedonicSegmentOf } from '../../../src/valuation/decide/segment.js';
import { rowSegment } from '../../../src/valuation/hedonic/design.js';
import { AREA, HEDONIC, evidence, tier1 } from '../../contracts/support/valuation-fixtures.js';
import { salesOf } from '../tier1-fixture.js';

const LAKE = { county: 'lake', outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false } as const;
const LAKE_HEDONIC = { ...HEDONIC, segment: 'mf2_4_lake' };

describe('hedonic segments by county', () => {
  it('Cook keeps <ptype>_<city|suburb>; Lake is <ptype>_lake whatever its municipality', () => {
    expect(hedonicSegmentOf('mf2_4', 'cook', 'Chicago')).toBe('mf2_4_city');
    expect(hedonicSegmentOf('mf2_4', 'cook', 'Evanston')).toBe('mf2_4_suburb');
    expect(hedonicSegmentOf('mf2_4', 'lake', 'Waukegan')).toBe('mf2_4_lake');
    expect(hedonicSegmentOf('sfh', 'lake', null)).toBe('sfh_lake');
    expect(hedonicSegmentCounty('mf2_4_lake')).toBe('lake');
    expect(hedonicSegmentCounty('mf2_4_suburb')).toBe('cook');
  });

  it('Lake sales enter the Lake hedonic segments (they entered none before)', () => {
    const c = salesOf([{ price: 300_000, ptype: 'mf2_4', county: 'lake' }, { price: 300_000, ptype: 'sfh', county: 'lake' }, { price: 300_000, ptype: 'mf2_4' }, { price: 300_000, ptype: 'condo', county: 'lake' }], ['17097860100', '17031000100']);
    c.tractIdx.set([0, 0, 1, 0]);
    const meta = new Map([
      ['17097860100', { geoid: '17097860100', county: 'lake' as const, muni: 'Waukegan', lat: 42.36, lon: -87.84 }],
      ['17031000100', { geoid: '17031000100', county: 'cook' as const, muni: 'Chicago', lat: 41.9, lon: -87.7 }],
    ]);
    expect([0, 1, 2, 3].map((i) => rowSegment(c, i, meta))).toEqual(['mf2_4_lake', 'sfh_lake', 'mf2_4_city', null]);
  });
});

describe('decideValuationDisplay — Tier 2 for Lake', () => {
  it('a Lake 2-4-unit subject without Tier 1 gets the Tier-2 range of its calibrated Lake segment', () => {
    const d = decideValuationDisplay(evidence({ subject: LAKE, tier1: tier1(1, { method: 'lake_gis_comps' }), tier2: LAKE_HEDONIC, areaContext: AREA }));
    expect(d.outcome).toBe('tier2_range');
    expect(d.arv).toMatchObject({ method: 'hedonic_v1', method_tier: 2, range_only: true, range_reason: 'hedonic_tier2_always_range', segment: 'mf2_4_lake' });
    expect(d.arvNullReason).toBe('insufficient_renovated_comps');
  });

  it('a Cook fit never values a Lake subject (area context instead, saying Tier 2 has no Lake model)', () => {
    const d = decideValuationDisplay(evidence({ subject: LAKE, tier1: null, tier2: HEDONIC, areaContext: AREA }));
    expect(d.outcome).toBe('area_context');
    expect(d.warnings).toContain('tier2_unavailable');
  });

  it('an uncalibrated Lake segment is not served, and the answer says so', () => {
    const d = decideValuationDisplay(evidence({ subject: LAKE, tier1: null, tier2: { ...LAKE_HEDONIC, displayEligible: false }, areaContext: null }));
    expect(d.outcome).toBe('suppressed');
    expect(d.arv.suppression_reason).toBe('insufficient_renovated_comps');
    expect(d.warnings).toEqual(['tier2_segment_not_calibrated']);
  });
});

describe('why Tier 2 did not step in', () => {
  it('no hedonic value at all: tier2_unavailable beside the Tier-1 reason', () => {
    const d = decideValuationDisplay(evidence({ tier1: null, tier2: null }));
    expect(d.outcome).toBe('suppressed');
    expect(d.warnings).toEqual(['tier2_unavailable']);
  });

  it('a Tier-1 answer or a served Tier-2 range carries neither warning', () => {
    expect(decideValuationDisplay(evidence({ tier1: tier1(8) })).warnings).toEqual([]);
    expect(decideValuationDisplay(evidence({ tier1: null, tier2: HEDONIC })).warnings).toEqual([]);
  });

  it('both warnings are in the valuation warnings taxonomy', () => {
    expect(VALUATION_WARNINGS).toEqual(expect.arrayContaining(['tier2_unavailable', 'tier2_segment_not_calibrated']));
  });
});
