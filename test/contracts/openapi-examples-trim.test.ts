// The example trimmer (contracts/openapi-examples.ts) cuts lists to EXAMPLE_ARRAY_ITEMS items, but a trimmed answer
// must still parse with its operation's schema: a GeoJSON ring keeps 4 positions and stays closed, a coordinate pair
// or a bbox keeps all its numbers.
import { describe, expect, it } from 'vitest';
import { AreaGeometrySchema } from '../../src/contracts/geo.js';
import { EXAMPLE_ARRAY_ITEMS, trimExample } from '../../src/contracts/openapi-examples.js';

/** A closed ring of `n` distinct positions around (lon, lat), plus its closing position (n + 1 in all). */
const ring = (lon: number, lat: number, n: number): number[][] => {
  const open = Array.from({ length: n }, (_, i) => [lon + 0.01 * Math.cos((2 * Math.PI * i) / n), lat + 0.01 * Math.sin((2 * Math.PI * i) / n)]);
  return [...open, open[0]!];
};

describe('trimExample', () => {
  it('keeps a polygon ring a closed ring of 4 positions (its first three and its closing one)', () => {
    const outer = ring(-87.7, 41.88, 9);
    const hole = ring(-87.7, 41.88, 5);
    const polygon = { type: 'Polygon', coordinates: [outer, hole, ring(-87.6, 41.9, 6)] };
    const trimmed = trimExample(polygon) as { coordinates: number[][][] };
    expect(AreaGeometrySchema.safeParse(trimmed).success).toBe(true);
    expect(trimmed.coordinates).toHaveLength(EXAMPLE_ARRAY_ITEMS);
    expect(trimmed.coordinates[0]).toEqual([outer[0], outer[1], outer[2], outer.at(-1)]);
    for (const r of trimmed.coordinates) expect(r.at(-1)).toEqual(r[0]);
  });

  it('keeps a multipolygon valid: polygons cut, each ring still closed and whole positions', () => {
    const multi = { type: 'MultiPolygon', coordinates: [[ring(-87.7, 41.88, 7)], [ring(-87.8, 41.9, 12)], [ring(-87.9, 42, 4)]] };
    const trimmed = trimExample(multi) as { coordinates: number[][][][] };
    expect(AreaGeometrySchema.safeParse(trimmed).success).toBe(true);
    expect(trimmed.coordinates).toHaveLength(EXAMPLE_ARRAY_ITEMS);
    expect(trimmed.coordinates.flat().every((r) => r.length === 4 && r.every((p) => p.length === 2))).toBe(true);
  });

  it('never cuts a list of numbers (a position, a bbox, a weight vector); other lists and long texts are cut', () => {
    const body = { bbox: [-87.8, 41.8, -87.6, 41.95], items: [{ a: 1 }, { a: 2 }, { a: 3 }], line: [[1, 2], [3, 4], [5, 6]], text: 'x'.repeat(1000) };
    const trimmed = trimExample(body) as typeof body;
    expect(trimmed.bbox).toEqual(body.bbox);
    expect(trimmed.items).toEqual([{ a: 1 }, { a: 2 }]);
    expect(trimmed.line).toEqual([[1, 2], [3, 4]]);
    expect(trimmed.text.length).toBeLessThan(body.text.length);
  });
});
