// reference/stats.ts is the one median / type-7 quantile: hand-computed cases, and bit-for-bit equality with the
// kernel's definitions (bench/reference/ref-math.ts mirrors stats.rs) and with the copies it replaced.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { medianSorted as refMedianSorted, quantile7Sorted as refQuantile7Sorted } from '../../bench/reference/ref-math.js';
import { meanSd, median, medianOfPrefix, medianSorted, quantileType7, quantileType7Sorted } from '../../src/reference/stats.js';

/** The median every module wrote for itself before stats.ts: sort a copy with (a, b) => a − b, take the midpoint. */
function copiedMedian(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const asc = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
// -0 is left out: the two sorts may order -0 and +0 differently (equal numbers), which only flips the sign of a zero.
const sample = fc.array(fc.double({ noNaN: true, min: -1e12, max: 1e12 }).map((x) => (x === 0 ? 0 : x)), { minLength: 1, maxLength: 60 });

describe('quantileType7Sorted(sorted, p)', () => {
  it('interpolates at h = (n − 1)p', () => {
    // [10, 20, 40]: p = 0.25 → h = 0.5 → 10 + 0.5 × 10 = 15; p = 0.9 → h = 1.8 → 20 + 0.8 × 20 = 36
    expect(quantileType7Sorted([10, 20, 40], 0.25)).toBe(15);
    expect(quantileType7Sorted([10, 20, 40], 0.9)).toBeCloseTo(36, 12);
    expect(quantileType7Sorted([7], 0.5)).toBe(7);
  });

  it('refuses an empty sample and p outside [0, 1]', () => {
    expect(() => quantileType7Sorted([], 0.5)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => quantileType7Sorted([1, 2], 1.5)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('quantileType7(xs, p)', () => {
  it('sorts a copy first: 0.8, 0.9, 1.0, 1.1, 1.2, 3.0 at p = 0.25 → h = 1.25 → 0.9 + 0.25 × 0.1 = 0.925', () => {
    const xs = [1.2, 0.8, 3.0, 0.9, 1.1, 1.0];
    expect(quantileType7(xs, 0.25)).toBeCloseTo(0.925, 12);
    expect(xs).toEqual([1.2, 0.8, 3.0, 0.9, 1.1, 1.0]);
  });

  it('is the kernel’s quantile7_sorted bit for bit', () => {
    fc.assert(
      fc.property(sample, fc.double({ min: 0, max: 1, noNaN: true }), (xs, p) => {
        expect(quantileType7(xs, p)).toBe(refQuantile7Sorted(asc(xs), p));
      }),
      { numRuns: 500, seed: 12 },
    );
  });
});

describe('median(xs)', () => {
  it('odd n: the middle value; even n: the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(medianSorted(Float64Array.of(1, 2, 3, 10))).toBe(2.5);
    expect(() => median([])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });

  it('is the kernel’s median_sorted and the copies it replaced, bit for bit', () => {
    fc.assert(
      fc.property(sample, (xs) => {
        const m = median(xs);
        expect(m).toBe(refMedianSorted(asc(xs)));
        expect(m).toBe(copiedMedian(xs));
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it('is the midpoint, not the type-7 form at p = 0.5, which can differ in the last bit', () => {
    // in doubles (0.1 + 0.7) / 2 = 0.39999999999999997 but 0.1 + 0.5 × (0.7 − 0.1) = 0.1 + 0.3 = 0.4
    expect(median([0.1, 0.7])).toBe(0.39999999999999997);
    expect(quantileType7([0.1, 0.7], 0.5)).toBe(0.4);
  });
});

describe('medianOfPrefix(a, n)', () => {
  it('is median(a[0 .. n)), sorting that prefix in place and leaving the rest', () => {
    fc.assert(
      fc.property(sample, fc.array(fc.double({ noNaN: true }), { maxLength: 5 }), (xs, tail) => {
        const a = Float64Array.from([...xs, ...tail]);
        expect(medianOfPrefix(a, xs.length)).toBe(copiedMedian(xs));
        expect(Array.from(a.subarray(0, xs.length))).toEqual(asc(xs));
        expect(Array.from(a.subarray(xs.length))).toEqual(tail);
      }),
      { numRuns: 300, seed: 13 },
    );
  });
});

describe('meanSd(values)', () => {
  it('uses the n − 1 divisor and gives sd 0 for one value', () => {
    // 2, 4, 6: mean 4, squared deviations 4 + 0 + 4 = 8, sd = √(8 / 2) = 2
    expect(meanSd([2, 4, 6])).toEqual({ mean: 4, sd: 2 });
    expect(meanSd([5])).toEqual({ mean: 5, sd: 0 });
  });
});
