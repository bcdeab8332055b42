// Split-conformal ranks and quantiles: floor((n+1)·0.1) and ceil((n+1)·0.9), clamped to [1, n], for the 80% interval.
import { describe, expect, it } from 'vitest';
import { conformalRanks, splitConformalQuantiles } from '../../src/valuation/calibration/conformal.js';

describe('conformalRanks', () => {
  it.each([
    [9, 1, 9], //   floor(10·0.1) = 1,  ceil(10·0.9) = 9 (round-off guarded: (1−0.8)/2 = 0.09999999999999998)
    [19, 2, 18], // floor(2) = 2, ceil(18) = 18
    [28, 2, 27], // floor(2.9) = 2, ceil(26.1) = 27
    [3, 1, 3], //   floor(0.4) = 0 → clamped to 1; ceil(3.6) = 4 → clamped to 3
    [1, 1, 1],
  ])('n = %i → ranks %i and %i', (n, lo, hi) => {
    expect(conformalRanks(n, 0.8)).toEqual({ rankLo: lo, rankHi: hi });
  });

  it('refuses an empty calibration set and a coverage outside (0, 1)', () => {
    expect(() => conformalRanks(0, 0.8)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => conformalRanks(10, 1)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('splitConformalQuantiles', () => {
  it('takes order statistics of price / estimate', () => {
    // estimates 100, prices 80..98 (shuffled) → ratios 0.80..0.98 (n = 19): rank 2 → 0.81, rank 18 → 0.97
    const prices = Array.from({ length: 19 }, (_, i) => 80 + ((i * 7) % 19));
    const q = splitConformalQuantiles(prices.map(() => 100), prices);
    expect(q).toMatchObject({ n: 19, rankLo: 2, rankHi: 18 });
    expect(q.qLo).toBeCloseTo(0.81, 12);
    expect(q.qHi).toBeCloseTo(0.97, 12);
  });

  it('refuses non-positive pairs', () => {
    expect(() => splitConformalQuantiles([100, 0], [100, 100])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
