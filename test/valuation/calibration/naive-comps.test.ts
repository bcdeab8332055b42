// The naive comps estimator on hand-built corpora: which sales it takes (8 nearest, within 1 mi, strictly earlier,
// ±20% sqft, ±1 bed, same type, not the subject's parcel) and the value it gives (median $/sf × subject sqft).
import { describe, expect, it } from 'vitest';
import { naiveCompsEstimator } from '../../../src/valuation/calibration/naive-comps.js';
import { salesOf, type Row } from '../tier1-fixture.js';

/** Row 0 is the subject (distance 0, sold "today"); every comp sold 30 days before unless stated. */
const subject: Row = { distMi: 0, daysAgo: 0, price: 300_000, sqft: 1500, beds: 3, parcel: 1 };
const estimateOf = (rows: Row[]): number | null => {
  const sales = salesOf([subject, ...rows]);
  return naiveCompsEstimator(sales, new Uint8Array(sales.length).fill(1)).estimate(0);
};

describe('naive comps estimator', () => {
  it('median $/sf of the comps × subject sqft: 200, 210, 220 $/sf at 1500 sf → 210 × 1500', () => {
    expect(estimateOf([
      { distMi: 0.2, price: 200 * 1500 }, { distMi: 0.3, price: 210 * 1500 }, { distMi: 0.4, price: 220 * 1600, sqft: 1600 },
    ])).toBeCloseTo(210 * 1500, 6);
  });

  it('takes the 8 nearest: ten comps at 0.1..1.0 mi priced 100..1000 $/sf → median of the first 8 = (400+500)/2 = 450', () => {
    const rows = Array.from({ length: 10 }, (_, k) => ({ distMi: 0.1 * (k + 1), price: 100 * (k + 1) * 1500 }));
    expect(estimateOf(rows)).toBeCloseTo(450 * 1500, 6);
  });

  it('leaves out later, same-day and over-a-year-old sales, sales beyond 1 mi, outside ±20% sqft or ±1 bed, other types and its own parcel', () => {
    const kept: Row = { distMi: 0.5, price: 150 * 1500 };
    const excluded: Row[] = [
      { distMi: 0.2, daysAgo: 0, price: 999 * 1500 }, // same day
      { distMi: 0.2, daysAgo: -5, price: 999 * 1500 }, // later
      { distMi: 0.2, daysAgo: 366, price: 999 * 1500 }, // more than naive_lookback_days (365) before
      { distMi: 1.05, price: 999 * 1500 }, // beyond 1 mi
      { distMi: 0.2, sqft: 1801, price: 999 * 1801 }, // +20.07% sqft
      { distMi: 0.2, beds: 5, price: 999 * 1500 }, // +2 beds
      { distMi: 0.2, ptype: 'mf2_4', price: 999 * 1500 },
      { distMi: 0.2, parcel: 1, price: 999 * 1500 }, // the subject's own earlier sale
    ];
    expect(estimateOf([kept, ...excluded])).toBeCloseTo(150 * 1500, 6);
    expect(estimateOf([{ distMi: 0.2, sqft: 1800, beds: 4, east: true, price: 160 * 1800 }])).toBeCloseTo(160 * 1500, 6); // bands inclusive
  });

  it('refuses without comps or without the subject living area', () => {
    expect(estimateOf([])).toBeNull();
    const sales = salesOf([{ ...subject, sqft: null }, { distMi: 0.2, price: 300_000 }]);
    expect(naiveCompsEstimator(sales, new Uint8Array(2).fill(1)).estimate(0)).toBeNull();
  });

  it('reads only arms-length sales', () => {
    const sales = salesOf([subject, { distMi: 0.2, price: 200 * 1500 }, { distMi: 0.3, price: 400 * 1500 }]);
    expect(naiveCompsEstimator(sales, Uint8Array.from([1, 0, 1])).estimate(0)).toBeCloseTo(400 * 1500, 6);
  });

  it('finds a comp near the 1-mile edge across cells east and north (the ring search covers the radius)', () => {
    expect(estimateOf([{ distMi: 0.99, east: true, price: 123 * 1500 }])).toBeCloseTo(123 * 1500, 6);
    expect(estimateOf([{ distMi: 0.99, price: 321 * 1500 }])).toBeCloseTo(321 * 1500, 6);
  });
});
