// Flip pairs: same-PIN dated/distressed → renovated/new resale legs within 24 months, each sale in at most one pair.
import { describe, expect, it } from 'vitest';
import { buildParcelSalesIndex, detectFlipPairs, summarizeFlipPairs } from '../../../src/valuation/comps/flip-pairs.js';
import { AS_OF_DAY, salesOf, type Row } from '../tier1-fixture.js';

describe('flip pairs', () => {
  const rows: Row[] = [
    { parcel: 1, price: 150_000, cond: 'distressed', daysAgo: 400 }, // 0: buy leg of parcel 1
    { parcel: 1, price: 240_000, cond: 'renovated', daysAgo: 200 }, //  1: sell leg → uplift 60%
    { parcel: 1, price: 250_000, cond: 'renovated', daysAgo: 100 }, //  2: second renovated resale: buy leg already used
    { parcel: 2, price: 200_000, cond: 'renovated', daysAgo: 300 }, //  3: renovated → renovated is no flip
    { parcel: 2, price: 230_000, cond: 'renovated', daysAgo: 50 }, //   4
    { parcel: 3, price: 100_000, cond: 'dated', daysAgo: 1200 }, //     5: too old (> 730 days before the resale)
    { parcel: 3, price: 200_000, cond: 'new', daysAgo: 100 }, //        6
    { parcel: 4, price: 120_000, cond: 'dated', daysAgo: 300 }, //      7: resale after the as-of day is not seen
    { parcel: 4, price: 220_000, cond: 'renovated', daysAgo: -10 }, //  8
  ];
  const c = salesOf(rows);
  const idx = buildParcelSalesIndex(c);

  it('pairs each buy leg with one resale, newest resale first, never counting a leg twice', () => {
    const pairs = detectFlipPairs(c, idx, [1, 2, 4, 6, 8], AS_OF_DAY);
    // Newest sell first: row 2 (100 days ago) takes the distressed buy (row 0); row 1 then has no unused buy leg.
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ buy_price: 150_000, sell_price: 250_000, days_held: 300, buy_condition: 'distressed', sell_condition: 'renovated' });
    expect(pairs[0].uplift_pct).toBeCloseTo((250_000 / 150_000 - 1) * 100, 10);
  });

  it('a pool listing the same row twice still yields one pair', () => {
    expect(detectFlipPairs(c, idx, [2, 2, 1, 2], AS_OF_DAY)).toHaveLength(1);
  });

  it('summary: n, median uplift and at most 5 samples', () => {
    const pair = { pin: 'p', buy_date: 'a', buy_price: 1, buy_condition: 'dated', sell_date: 'b', sell_price: 2, sell_condition: 'new', days_held: 1 };
    const s = summarizeFlipPairs([10, 30, 20, 40, 50, 60, 70].map((u) => ({ ...pair, uplift_pct: u })));
    expect(s.n).toBe(7);
    expect(s.median_uplift_pct).toBe(40); // sorted 10..70, middle of 7
    expect(s.sample).toHaveLength(5);
    expect(summarizeFlipPairs([])).toEqual({ n: 0, median_uplift_pct: null, sample: [] });
  });
});
