// The Tier-1 value of a comp set: the distance-weighted median (comp-value.ts), by hand.
import { describe, expect, it } from 'vitest';
import { compSetValueUsd, compValueWeight, weightedMedian } from '../../../src/valuation/comps/comp-value.js';
import { TIER1 } from '../../../src/registry/groups/tier1.js';

describe('weightedMedian', () => {
  it('is the plain median when the weights are equal (odd and even counts)', () => {
    expect(weightedMedian([5, 1, 3], [2, 2, 2])).toBe(3);
    expect(weightedMedian([4, 1, 3, 2], [1, 1, 1, 1])).toBe(2.5); // cumulative weight reaches exactly half at 2
    expect(weightedMedian([7], [0.3])).toBe(7);
    expect(weightedMedian([], [])).toBeNull();
  });

  it('follows the weight: one heavy value wins, ties by order of value', () => {
    expect(weightedMedian([100, 200, 300], [1, 1, 5])).toBe(300); // 1, 2, 7 ≥ 3.5
    expect(weightedMedian([100, 200, 300], [3, 1, 1])).toBe(100); // 3 ≥ 2.5
    expect(weightedMedian([100, 200, 300, 400], [1, 2, 2, 1])).toBe(250); // 1, 3 = half exactly → mean of 200 and 300
  });

  it('ignores the order of the input', () => {
    expect(weightedMedian([300, 100, 200], [5, 1, 1])).toBe(300);
  });

  it('orders short and long lists as the index sort by value, ties by index, would (ties, ±0, infinities)', () => {
    // The definition, written plainly: what the short-list insertion order must reproduce, bit for bit.
    const byDefinition = (values: number[], weights: number[]): number | null => {
      if (values.length === 0) return null;
      const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b] || a - b);
      const total = weights.reduce((a, w) => a + w, 0);
      const [half, tol] = [total / 2, total * 1e-12];
      let acc = 0;
      for (let k = 0; k < order.length; k++) {
        acc += weights[order[k]];
        if (acc >= half - tol) return Math.abs(acc - half) <= tol && k + 1 < order.length ? (values[order[k]] + values[order[k + 1]]) / 2 : values[order[k]];
      }
      return values[order[order.length - 1]];
    };
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pool = [0, -0, 1, 2, 2, 3.5, 1e6, Infinity, -Infinity];
    for (let trial = 0; trial < 400; trial++) {
      const n = 1 + Math.floor(rand() * 40); // across the insertion bound (32)
      const values = Array.from({ length: n }, () => (rand() < 0.3 ? pool[Math.floor(rand() * pool.length)] : Math.round(rand() * 20) * 1000));
      const weights = Array.from({ length: n }, () => (rand() < 0.3 ? 1 : 0.1 + rand()));
      expect(Object.is(weightedMedian(values, weights), byDefinition(values, weights))).toBe(true);
    }
  });
});

describe('compSetValueUsd', () => {
  it('weights a comp by 1 / (distance + offset)^power', () => {
    const { value_weight_offset_mi: o, value_weight_power: p } = TIER1.v;
    expect(compValueWeight(0.45)).toBeCloseTo(1 / (0.45 + o) ** p, 12);
    expect(compValueWeight(-1)).toBe(compValueWeight(0)); // a distance is never negative; guard anyway
  });

  it('lets two near comps outweigh three far ones (offset 0.05, power 2)', () => {
    // Weights: 0.05 mi → 1/0.01 = 100 each; 0.95 mi → 1/1 = 1 each. Total 203, half 101.5; by price 300k 1 → 310k 2 →
    // 320k 3 → 400k 103 ≥ 101.5. The plain median would be 320k.
    const comps = [
      { adjustedPrice: 300_000, distMi: 0.95 }, { adjustedPrice: 310_000, distMi: 0.95 }, { adjustedPrice: 320_000, distMi: 0.95 },
      { adjustedPrice: 400_000, distMi: 0.05 }, { adjustedPrice: 410_000, distMi: 0.05 },
    ];
    expect(TIER1.v.value_weight_offset_mi).toBe(0.05);
    expect(TIER1.v.value_weight_power).toBe(2);
    expect(compSetValueUsd(comps)).toBe(400_000);
    expect(compSetValueUsd([])).toBeNull();
  });
});

describe('evidenceOf: the comp range holds the weighted value', () => {
  it('widens the IQR to the value when one near comp pulls the value outside it', async () => {
    const { evidenceOf } = await import('../../../src/valuation/comps/tier1.js');
    // Weights: 0.05 mi → 100, 0.95 mi → 1 each: the value is the near comp's 400k, above the unweighted q75 of 330k.
    const prices = [300_000, 310_000, 320_000, 330_000, 400_000];
    const dists = [0.95, 0.95, 0.95, 0.95, 0.05];
    const accepted = prices.map((p, i) => ({ row: i, distMi: dists[i], indexFactor: 1, indexedPrice: p, glaAdj: null, adjustedPrice: p, similarity: 0.5 }));
    const res = { step: 1, nQualified: 5, accepted, rejected: [], stats: { n: 5, median: 320_000, q25: 310_000, q75: 330_000, fsd: 0.05 } };
    const subject = { lat: 41.9, lon: -87.7, sqft: null, beds: null, ptype: 0, county: 1, asOfDay: 20_000 };
    const e = evidenceOf(res, subject, false);
    expect(e.valueUsd).toBe(400_000);
    expect(e.compRangeUsd).toEqual({ low: 310_000, high: 400_000 });
  });
});
