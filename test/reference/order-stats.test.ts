// rankedPrefix (selection) gives quantileType7Sorted and medianSorted exactly the values of the sorted prefix, on
// seeded samples of many sizes with ties, and the sort's answer when the prefix holds a NaN; selectF64 places one
// order statistic with no greater value before it and no smaller after it.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/ingest/generate/rng.js';
import { selectF64, sortF64Prefix } from '../../src/reference/f64-sort.js';
import { medianRanks, rankedPrefix, type7Ranks } from '../../src/reference/order-stats.js';
import { medianSorted, quantileType7Sorted } from '../../src/reference/stats.js';

function sample(rng: Rng, n: number): number[] {
  const ties = rng.chance(0.3);
  return Array.from({ length: n }, () => (ties ? rng.int(0, 5) * 1000 : rng.uniform(50, 900) * rng.uniform(500, 3000)));
}

describe('rankedPrefix', () => {
  it('reads the quartiles and the median of the sorted prefix, for 3,000 seeded samples of 1..2,000 values', () => {
    const rng = new Rng(20261127, 'order-stats');
    for (let t = 0; t < 3000; t++) {
      const n = t < 200 ? t + 1 : rng.int(1, 2000);
      const xs = sample(rng, n);
      const sorted = sortF64Prefix(Float64Array.from(xs), n);
      const q = rankedPrefix(Float64Array.from([...xs, -1, -2]), n, [...type7Ranks(n, 0.25), ...type7Ranks(n, 0.5), ...type7Ranks(n, 0.75)]);
      for (const p of [0.25, 0.5, 0.75]) expect(quantileType7Sorted(q, p)).toBe(quantileType7Sorted(sorted, p));
      expect(medianSorted(rankedPrefix(Float64Array.from(xs), n, medianRanks(n)))).toBe(medianSorted(sorted));
    }
  });

  it('falls back to the sorted prefix (NaNs last) when the prefix holds a NaN', () => {
    const a = Float64Array.from([3, Number.NaN, 1, 2]);
    const q = rankedPrefix(a, 4, type7Ranks(4, 0.5));
    expect(Array.from(q as Float64Array)).toEqual([1, 2, 3, Number.NaN]);
  });
});

describe('selectF64', () => {
  it('places rank k and partitions around it, for seeded arrays and every kind of rank', () => {
    const rng = new Rng(20261128, 'select');
    for (let t = 0; t < 500; t++) {
      const n = rng.int(1, 400);
      const xs = sample(rng, n);
      const want = [...xs].sort((x, y) => x - y);
      const k = t % 3 === 0 ? 0 : t % 3 === 1 ? n - 1 : rng.int(0, n - 1);
      const a = Float64Array.from(xs);
      selectF64(a, 0, n - 1, k);
      expect(a[k]).toBe(want[k]);
      for (let i = 0; i < k; i++) expect(a[i]).toBeLessThanOrEqual(a[k]);
      for (let i = k + 1; i < n; i++) expect(a[i]).toBeGreaterThanOrEqual(a[k]);
    }
  });
});
