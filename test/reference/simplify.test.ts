import { describe, expect, it } from 'vitest';
import { isSimpleRing, isValidIntPolygon, simplifyPolygon, simplifyRing, toIntRing, toleranceLadder } from '../../src/reference/derive/simplify.js';
import type { Position } from '../../src/reference/geo.js';

describe('simplifyRing(ring, tolDeg)', () => {
  // unit square with two near-collinear extra vertices: (0.5, 0.0001) is 1e-4 off the bottom edge, (1, 0.5) is on the right edge
  const ring: Position[] = [[0, 0], [0.5, 0.0001], [1, 0], [1, 0.5], [1, 1], [0, 1], [0, 0]];
  it('drops vertices within the tolerance and keeps the corners', () => {
    expect(simplifyRing(ring, 0.001)).toEqual([[0, 0], [1, 0], [1, 1], [0, 1]]);
  });
  it('keeps a vertex farther than the tolerance', () => {
    expect(simplifyRing(ring, 0.00005)).toContainEqual([0.5, 0.0001]);
  });
});

describe('isValidIntPolygon(rings)', () => {
  it('accepts a square with a hole', () => {
    expect(isValidIntPolygon([[[0, 0], [10, 0], [10, 10], [0, 10]], [[3, 3], [3, 7], [7, 7], [7, 3]]])).toBe(true);
  });
  it('rejects a bow-tie, a zero-width spike and a hole crossing the shell', () => {
    expect(isSimpleRing([[0, 0], [10, 10], [10, 0], [0, 10]])).toBe(false);
    expect(isSimpleRing([[0, 0], [10, 0], [10, 10], [10, 20], [10, 10], [0, 10]])).toBe(false);
    expect(isValidIntPolygon([[[0, 0], [10, 0], [10, 10], [0, 10]], [[5, 5], [15, 5], [15, 6], [5, 6]]])).toBe(false);
  });
});

describe('toIntRing(open, decimals)', () => {
  it('rounds onto the grid and drops repeated vertices', () => {
    expect(toIntRing([[0.000001, 0], [0.000004, 0], [1, 0], [1, 1]], 5)).toEqual([[0, 0], [100000, 0], [100000, 100000]]);
  });
});

describe('simplifyPolygon(poly, tol, decimals, halvings)', () => {
  it('returns closed rings of at least 4 positions on the grid', () => {
    const out = simplifyPolygon([[[0, 0], [0.5, 0.00001], [1, 0], [1, 1], [0, 1], [0, 0]]], 0.001, 5, 2);
    expect(out?.coords).toEqual([[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]);
    expect(out?.tolUsedDeg).toBe(0.001);
  });
  it('tries finer tolerances first, then unsimplified, then coarser', () => {
    expect(toleranceLadder(0.0004, 2)).toEqual([0.0004, 0.0002, 0.0001, 0, 0.0008, 0.0016]);
  });
});
