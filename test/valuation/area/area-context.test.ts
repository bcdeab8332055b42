import { describe, expect, it } from 'vitest';
import { AreaContextSchema, AREA_CONTEXT_LABEL } from '../../../src/contracts/area-context.js';
import { COUNTY_CODE, PTYPE_CODE } from '../../../src/store/columns.js';
import { areaContextFromEvidence, buildAreaIndex, estimateAreaContext, type AreaSubject } from '../../../src/valuation/area/area-context.js';
import { findFlipPairs, premiumFor } from '../../../src/valuation/area/area-premium.js';
import { timeFactorFromSeries } from '../../../src/valuation/area/area-time.js';
import { salesOf, type Sale } from '../area-context-sales.js';

const AS_OF = 20_000;
const SUBJECT: AreaSubject = { lat: 41.85, lon: -87.65, tractIdx: 0, ptype: PTYPE_CODE.sfh, county: COUNTY_CODE.cook, sqft: 1500, asOfDay: AS_OF };
// five renovated sfh sales in tract 0, 1,000 sqft, $200k..$240k → $200..$240 per sqft
const RENO: Sale[] = [200, 210, 220, 230, 240].map((k, i) => ({ parcel: i + 1, day: AS_OF - 100 - i, price: k * 1000, sqft: 1000 }));

describe('estimateAreaContext', () => {
  it('values the subject at the tract median $/sf of renovated sales × its sqft, band at the quartiles', () => {
    const e = estimateAreaContext(buildAreaIndex(salesOf(RENO)), SUBJECT)!;
    // median $/sf 220 × 1500 = 330,000; type-7 q25 = 210 → 315,000; q75 = 230 → 345,000
    expect(e.valueUsd).toBeCloseTo(330_000, 6);
    expect(e.lowUsd).toBeCloseTo(315_000, 6);
    expect(e.highUsd).toBeCloseTo(345_000, 6);
    expect(e.confidence).toBe(55);
    expect(e.basis).toContain('5 renovated/new sales (tract');
    expect(e.premium).toBeNull(); // no flip pairs anywhere
  });

  it('is a valid area_context object with the exact label and never more than 55 confidence', () => {
    const ac = areaContextFromEvidence(estimateAreaContext(buildAreaIndex(salesOf(RENO)), SUBJECT)!);
    expect(AreaContextSchema.safeParse(ac).success).toBe(true);
    expect(ac.label).toBe(AREA_CONTEXT_LABEL);
    expect(ac.label).toBe('Area estimate — not property-specific');
    expect(ac.method).toBe('nbhd_premium');
  });

  it('uses the median price when the subject sqft is unknown', () => {
    const e = estimateAreaContext(buildAreaIndex(salesOf(RENO)), { ...SUBJECT, sqft: null })!;
    expect(e.valueUsd).toBe(220_000);
    expect(e.basis).toContain('median not time-adjusted price');
  });

  it('widens to neighbors within 1.5 mi when the tract is thin, and ignores non-arms-length and stale sales', () => {
    const rows: Sale[] = [
      ...RENO.slice(0, 4),
      { parcel: 9, day: AS_OF - 50, price: 240_000, sqft: 1000, tract: 1, lon: -87.63 }, // 0.62 mi east, tract 1
      { parcel: 10, day: AS_OF - 50, price: 900_000, sqft: 1000, deed: 'quitclaim' }, //   not arms-length
      { parcel: 11, day: AS_OF - 800, price: 900_000, sqft: 1000 }, //                   older than the 730-day lookback
      { parcel: 12, day: AS_OF - 50, price: 900_000, sqft: 1000, lat: 41.9, tract: 1 }, // 3.45 mi north
    ];
    const e = estimateAreaContext(buildAreaIndex(salesOf(rows)), SUBJECT)!;
    // pool = 200, 210, 220, 230, 240 per sqft again → 330,000
    expect(e.valueUsd).toBeCloseTo(330_000, 6);
    expect(e.basis).toContain('within 1.5 mi');
  });

  it('falls back to dated sales × (1 + shrunk flip premium) when renovated sales are too few', () => {
    const dated: Sale[] = [100, 110, 120, 130, 140].map((k, i) => ({ parcel: 20 + i, day: AS_OF - 200, price: k * 1000, sqft: 1000, cond: 'dated' }));
    const flips: Sale[] = [
      { parcel: 40, day: AS_OF - 400, price: 100_000, cond: 'dated', ptype: 'mf2_4' }, { parcel: 40, day: AS_OF - 200, price: 150_000, cond: 'renovated', ptype: 'mf2_4' },
      { parcel: 41, day: AS_OF - 400, price: 100_000, cond: 'distressed', ptype: 'mf2_4' }, { parcel: 41, day: AS_OF - 200, price: 120_000, cond: 'new', ptype: 'mf2_4' },
      { parcel: 42, day: AS_OF - 400, price: 100_000, cond: 'dated', lat: 42.0, ptype: 'mf2_4' }, { parcel: 42, day: AS_OF - 200, price: 200_000, cond: 'renovated', lat: 42.0, ptype: 'mf2_4' },
    ];
    const e = estimateAreaContext(buildAreaIndex(salesOf([...dated, ...flips])), SUBJECT)!;
    // area pairs (≤ 1.5 mi): ln 1.5, ln 1.2 → median 0.293893; county pairs ln 1.2, ln 1.5, ln 2 → median ln 1.5 = 0.405465
    // w = 2/(2+10) = 1/6 → exp(0.293893/6 + 0.405465·5/6) − 1 = exp(0.386870) − 1 = 0.472365; shrunk_from = √1.8 − 1 = 0.341641
    expect(e.premium).toEqual({ value: expect.closeTo(0.472365, 5), n_pairs: 2, shrunk_from: expect.closeTo(0.341641, 5) });
    // dated median $/sf 120 × 1500 = 180,000 × 1.472365 = 265,025.7; q25 110 → 165,000 × 1.472365 = 242,940.2
    expect(e.valueUsd).toBeCloseTo(265_025.7, 0);
    expect(e.lowUsd).toBeCloseTo(242_940.2, 0);
    expect(e.basis).toContain('flip premium');
  });

  it('pools only the subject\'s type and county and leaves its own parcel out, in the tract and within the radius', () => {
    const others: Sale[] = [
      { parcel: 30, day: AS_OF - 60, price: 900_000, sqft: 1000, county: 'lake' }, //   another county, same point
      { parcel: 31, day: AS_OF - 60, price: 900_000, sqft: 1000, ptype: 'mf2_4' }, //   another type
      { parcel: 3, day: AS_OF - 600, price: 900_000, sqft: 1000 }, //                    the subject's own parcel, sold before
    ];
    const ix = buildAreaIndex(salesOf([...RENO, ...others]));
    const own = { ...SUBJECT, excludeParcelIdx: 3 };
    // tract pool: parcel 3's two sales left out → 200, 210, 230, 240 → 4 < min_sales 5 → the radius pool, also
    // without them: too few renovated sales there as well, and no dated sales → null
    expect(estimateAreaContext(ix, own)).toBeNull();
    // not excluded: 200, 210, 220, 230, 240, 900 per sqft → median (220 + 230)/2 = 225 × 1500
    expect(estimateAreaContext(ix, SUBJECT)!.valueUsd).toBeCloseTo(337_500, 6);
    // the same sales in no tract: the radius pool gives the same answer, with the same screens
    const ixRadius = buildAreaIndex(salesOf([...RENO, ...others].map((s) => ({ ...s, lon: -87.651 }))));
    const e = estimateAreaContext(ixRadius, { ...SUBJECT, tractIdx: null })!;
    expect(e.valueUsd).toBeCloseTo(337_500, 6);
    expect(e.basis).toContain('6 renovated/new sales (within 1.5 mi');
    expect(estimateAreaContext(ixRadius, { ...own, tractIdx: null })).toBeNull();
  });

  it('returns null when the area has too few sales', () => {
    expect(estimateAreaContext(buildAreaIndex(salesOf(RENO.slice(0, 4))), SUBJECT)).toBeNull();
  });
});

describe('premiumFor', () => {
  it('uses the county premium alone (shrunk_from null) when the area has no pair', () => {
    const pairs = findFlipPairs(salesOf([
      { parcel: 1, day: AS_OF - 300, price: 100_000, cond: 'dated', lat: 42.2 }, { parcel: 1, day: AS_OF - 100, price: 125_000, lat: 42.2 },
    ]), null);
    expect(pairs).toHaveLength(1);
    expect(premiumFor(pairs, { ...SUBJECT }, 1.5)).toEqual({ value: expect.closeTo(0.25, 10), n_pairs: 0, shrunk_from: null });
  });
  it('applies the time factor to leg 1 and ignores resales beyond the flip window', () => {
    const c = salesOf([
      { parcel: 1, day: 1000, price: 100_000, cond: 'dated' }, { parcel: 1, day: 1200, price: 132_000 },
      { parcel: 2, day: 1000, price: 100_000, cond: 'dated' }, { parcel: 2, day: 1800, price: 200_000 }, // 800 d > 730
    ]);
    // leg 1 indexed ×1.1 → 110,000; uplift ln(132,000/110,000) = ln 1.2
    const pairs = findFlipPairs(c, () => 1.1);
    expect(pairs).toHaveLength(1);
    expect(pairs[0].upliftLog).toBeCloseTo(Math.log(1.2), 12);
  });
});

describe('timeFactorFromSeries', () => {
  // Cook series: Jan 2024 = 100, Jul 2024 = 103, Jan 2025 = 120 (month = year × 12 + month − 1)
  const tf = timeFactorFromSeries([{ county: COUNTY_CODE.cook, months: [2024 * 12, 2024 * 12 + 6, 2025 * 12], levels: [100, 103, 120] }]);
  const day = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
  it('is the level ratio inside the 8%/year cap', () => {
    // Jan 15 → Jul 15 2024: 103/100 = 1.03; cap over 182 d = exp(182/365.2425 × ln 1.08) = 1.0391 → 1.03 stands
    expect(tf(COUNTY_CODE.cook, day('2024-01-15'), day('2024-07-15'))).toBeCloseTo(1.03, 12);
  });
  it('caps at 8% a year compounded and is 1 without a series', () => {
    // Jan 15 2024 → Jan 15 2025: raw 1.20 > cap exp(366/365.2425 × ln 1.08) = 1.080164
    expect(tf(COUNTY_CODE.cook, day('2024-01-15'), day('2025-01-15'))).toBeCloseTo(Math.exp((366 / 365.2425) * Math.log(1.08)), 12);
    expect(tf(COUNTY_CODE.lake, day('2024-01-15'), day('2025-01-15'))).toBe(1);
  });
});
