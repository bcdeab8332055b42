// Rng (seeded sfc32 streams), apportion (largest remainder) and the Voronoi cell used to cut tracts.
import { describe, expect, it } from 'vitest';
import { voronoiCell, ringAreaDeg2 } from '../../../src/ingest/generate/geometry.js';
import { Rng, apportion } from '../../../src/ingest/generate/rng.js';

describe('Rng', () => {
  it('repeats the same sequence for the same seed and stream', () => {
    const a = new Rng(42, 'sales'), b = new Rng(42, 'sales');
    expect(Array.from({ length: 50 }, () => a.nextU32())).toEqual(Array.from({ length: 50 }, () => b.nextU32()));
  });

  it('gives different sequences for another seed or another stream', () => {
    const first = (r: Rng): number[] => Array.from({ length: 5 }, () => r.nextU32());
    expect(first(new Rng(42, 'sales'))).not.toEqual(first(new Rng(43, 'sales')));
    expect(first(new Rng(42, 'sales'))).not.toEqual(first(new Rng(42, 'parcels')));
  });

  it('draws uniforms in [0,1) and integers within bounds', () => {
    const r = new Rng(1, 'x');
    const us = Array.from({ length: 10_000 }, () => r.next());
    const ks = Array.from({ length: 10_000 }, () => r.int(3, 5));
    expect(us.every((u) => u >= 0 && u < 1)).toBe(true);
    expect(new Set(ks)).toEqual(new Set([3, 4, 5]));
  });

  it('draws standard normals (mean ~0, sd ~1 over 20k draws: standard errors 0.007 and 0.005)', () => {
    const r = new Rng(9, 'n');
    const xs = Array.from({ length: 20_000 }, () => r.normal());
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(sd - 1)).toBeLessThan(0.03);
  });
});

describe('apportion', () => {
  it('splits a total by weight with the largest remainders, keeping the minimum', () => {
    // 10 by weights 1:1:1 → exact 3.33 each; one extra unit goes to the first (ties by index).
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    // 10 with at least 2 each: 4 free units by 3:1 → 3 and 1.
    expect(apportion(10, [3, 1, 0], 2)).toEqual([5, 3, 2]);
  });

  it('refuses a total below the minimum', () => {
    expect(() => apportion(2, [1, 1, 1], 1)).toThrow();
  });
});

describe('voronoiCell', () => {
  it('cuts a box at the perpendicular bisector of two seeds', () => {
    // Seeds at x=0.25 and x=0.75 in the unit box (no lon scaling): the cell of the first is x <= 0.5, area 0.5.
    const cell = voronoiCell([[0.25, 0.5], [0.75, 0.5]], 0, [0, 0, 1, 1], 1);
    expect(Math.abs(ringAreaDeg2(cell))).toBeCloseTo(0.5, 12);
    expect(Math.max(...cell.map((p) => p[0]))).toBeCloseTo(0.5, 12);
  });
});
