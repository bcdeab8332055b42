// The one point grid: cell keys are exact and distinct, and forEachCellNear reads every cell that can hold a point
// within the radius (a brute-force distance scan finds nothing the cells miss), each once, rows then columns ascending.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineMi } from '../../src/reference/geo.js';
import { buildPointGrid, cellKeyOf, forEachCellNear, gridCellKey, latHalfDeg } from '../../src/valuation/point-grid.js';

describe('gridCellKey(y, x) and cellKeyOf(lat, lon, cellDeg)', () => {
  it('are distinct for neighbouring and far cells, and NaN for a point without coordinates', () => {
    const keys = new Set<number>();
    for (const y of [-(2 ** 25), -1, 0, 1, 2 ** 25]) for (const x of [-(2 ** 24), -1, 0, 1, 2 ** 24 - 1]) keys.add(gridCellKey(y, x));
    expect(keys.size).toBe(25);
    expect(cellKeyOf(41.905, -87.705, 0.01)).toBe(gridCellKey(4190, -8771)); // 4190.5, -8770.5 floored
    expect(cellKeyOf(Number.NaN, -87.7, 0.01)).toBeNaN();
    expect(cellKeyOf(41.9, Number.POSITIVE_INFINITY, 0.01)).toBeNaN();
  });
});

describe('forEachCellNear(g, cellDeg, lat, lon, radiusMi, visit)', () => {
  const point = fc.tuple(fc.double({ min: -70, max: 70, noNaN: true }), fc.double({ min: -179, max: 179, noNaN: true }));

  it('reads the cells of every point within the radius, each cell once, in ascending key order', () => {
    fc.assert(
      fc.property(point, fc.constantFrom(0.25, 0.5, 1, 3), fc.array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), { maxLength: 200 }), ([lat, lon], radiusMi, offsets) => {
        // points scattered over about ±2 radii around the query, the grid's cell side = the radius (as its users build it)
        const span = 2 * latHalfDeg(radiusMi);
        const lats = offsets.map(([dy]) => lat + dy * span);
        const lons = offsets.map(([, dx]) => lon + (dx * span) / Math.cos((lat * Math.PI) / 180));
        const cellDeg = latHalfDeg(radiusMi);
        const g = buildPointGrid(lats.length, (i) => cellKeyOf(lats[i], lons[i], cellDeg));
        const cells: number[] = [];
        forEachCellNear(g, cellDeg, lat, lon, radiusMi, (c) => cells.push(c));
        expect(cells).toEqual([...new Set(cells)].sort((a, b) => a - b));
        const read = new Set(cells.flatMap((c) => Array.from(g.rows.subarray(g.offsets[c], g.offsets[c + 1]))));
        lats.forEach((la, i) => {
          if (haversineMi(lat, lon, la, lons[i]) <= radiusMi) expect(read.has(i), `point ${i}`).toBe(true);
        });
      }),
      { numRuns: 500, seed: 20261122 },
    );
  });
});
