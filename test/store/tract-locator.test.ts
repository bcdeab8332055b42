import { describe, expect, it } from 'vitest';
import { TractLocator, geometryBbox, type PolygonGeometry } from '../../src/store/tract-locator.js';
import { pointInPolygon, type AreaGeometry } from '../../src/reference/geo.js';

const square = (x0: number, y0: number, x1: number, y1: number): number[][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
// Tract 0: a 0.1° square with a 0.02° hole in its middle; tract 1: the square east of it; tract 2: a MultiPolygon of
// two small squares, one of them filling tract 0's hole.
const GEOMS: PolygonGeometry[] = [
  { type: 'Polygon', coordinates: [square(-87.7, 41.8, -87.6, 41.9), square(-87.66, 41.84, -87.64, 41.86)] },
  { type: 'Polygon', coordinates: [square(-87.6, 41.8, -87.5, 41.9)] },
  { type: 'MultiPolygon', coordinates: [[square(-87.66, 41.84, -87.64, 41.86)], [square(-88.0, 42.3, -87.99, 42.31)]] },
];

describe('TractLocator.locate(lon, lat)', () => {
  const loc = new TractLocator(GEOMS);
  it('finds the tract whose polygon holds the point', () => {
    expect(loc.locate(-87.69, 41.81)).toBe(0);
    expect(loc.locate(-87.55, 41.85)).toBe(1);
    expect(loc.locate(-87.995, 42.305)).toBe(2);
  });
  it('a point in a hole belongs to the polygon filling the hole, not the holed one', () => {
    expect(loc.locate(-87.65, 41.85)).toBe(2);
  });
  it('returns -1 outside every tract, including inside a bbox but outside the polygon', () => {
    expect(loc.locate(-87.65, 41.95)).toBe(-1);
    expect(loc.locate(-87.98, 42.305)).toBe(-1);
  });
  it('agrees with a grid-free scan of every tract on a lattice of points', () => {
    for (let lon = -88.0; lon <= -87.5; lon += 0.0137) for (let lat = 41.79; lat <= 42.32; lat += 0.0113) {
      const first = GEOMS.findIndex((g) => pointInPolygon(lon, lat, g as AreaGeometry));
      expect(loc.locate(lon, lat)).toBe(first);
    }
  });
});

describe('geometryBbox(geometry)', () => {
  it('spans every outer ring of a MultiPolygon', () => {
    expect(geometryBbox(GEOMS[2])).toEqual([-88.0, 41.84, -87.64, 42.31]);
  });
});
