// factorReader (area-time.ts) returns the time factor's own value for every sale, from its table inside the window
// and from the factor itself outside it or for another county, and keeps one factor's tables apart from another's.
import { describe, expect, it } from 'vitest';
import { factorReader } from '../../../src/valuation/area/area-time.js';

describe('factorReader', () => {
  it('gives tf(county, saleDay, toDay) for sales inside and outside the window, any county, tabled or not', () => {
    let calls = 0;
    const tf = (county: number, saleDay: number, toDay: number): number => (calls++, 1 + county / 10 + (toDay - saleDay) / 1e4 + Math.sin(saleDay) / 1e6);
    const read = factorReader(tf, 1, 20_000, 730);
    for (let round = 0; round < 2; round++) {
      for (const day of [20_000 - 730, 20_000 - 1, 19_500, 20_000, 20_001, 20_000 - 731, 10_000]) {
        expect(read(1, day)).toBe(tf(1, day, 20_000));
        expect(read(2, day)).toBe(tf(2, day, 20_000));
      }
    }
    // a second reader of the same (tf, county, day, span) reads the same table: no new call inside the window
    const before = calls;
    expect(factorReader(tf, 1, 20_000, 730)(1, 19_500)).toBe(tf(1, 19_500, 20_000));
    expect(calls).toBe(before + 1); // only the expectation's own call
  });

  it('keeps the tables of two time factors apart, and is 1 without one', () => {
    const a = factorReader((_c, s, t) => 1 + (t - s) / 1000, 1, 5000, 100);
    const b = factorReader((_c, s, t) => 2 + (t - s) / 1000, 1, 5000, 100);
    expect(a(1, 4990)).toBe(1.01);
    expect(b(1, 4990)).toBe(2.01);
    expect(factorReader(null, 1, 5000, 100)(1, 4990)).toBe(1);
  });
});
