import { describe, expect, it } from 'vitest';
import { bboxOf, EARTH_RADIUS_MI, haversineMi, pointInPolygon, type AreaGeometry } from '../../src/reference/geo.js';

// 10x10 square with a 4x4 hole in the middle (3..7), and a second 2x2 square far away for the multipolygon case
const outer: [number, number][] = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]];
const hole: [number, number][] = [[3, 3], [3, 7], [7, 7], [7, 3], [3, 3]];
const far: [number, number][] = [[20, 20], [22, 20], [22, 22], [20, 22], [20, 20]];
const withHole: AreaGeometry = { type: 'Polygon', coordinates: [outer, hole] };
const multi: AreaGeometry = { type: 'MultiPolygon', coordinates: [[outer, hole], [far]] };

describe('pointInPolygon(lon, lat, geometry)', () => {
  it('is true inside the ring and false inside the hole', () => {
    expect(pointInPolygon(1, 1, withHole)).toBe(true);
    expect(pointInPolygon(8, 5, withHole)).toBe(true);
    expect(pointInPolygon(5, 5, withHole)).toBe(false);
  });
  it('is false outside', () => {
    expect(pointInPolygon(-1, 5, withHole)).toBe(false);
    expect(pointInPolygon(11, 11, withHole)).toBe(false);
  });
  it('checks every part of a MultiPolygon', () => {
    expect(pointInPolygon(21, 21, multi)).toBe(true);
    expect(pointInPolygon(5, 5, multi)).toBe(false);
    expect(pointInPolygon(15, 15, multi)).toBe(false);
  });
});

describe('bboxOf(geometry)', () => {
  it('spans every part', () => {
    expect(bboxOf(withHole)).toEqual([0, 0, 10, 10]);
    expect(bboxOf(multi)).toEqual([0, 0, 22, 22]);
  });
  it('throws on an empty geometry', () => {
    expect(() => bboxOf({ type: 'MultiPolygon', coordinates: [] })).toThrow(/no vertices/);
  });
});

describe('haversineMi(lat1, lon1, lat2, lon2)', () => {
  it('gives one degree of latitude as 2*pi*3958.8/360 mi', () => {
    expect(EARTH_RADIUS_MI).toBe(3958.8);
    expect(haversineMi(41, -87, 42, -87)).toBeCloseTo((2 * Math.PI * 3958.8) / 360, 9); // 69.0934 mi
  });
  it('shrinks a degree of longitude by cos(lat) for short hops', () => {
    // 0.01 degree of longitude at 41.8N: 0.01 * (pi/180) * 3958.8 * cos(41.8 deg) = 0.51500 mi (flat approximation)
    const flat = 0.01 * (Math.PI / 180) * 3958.8 * Math.cos((41.8 * Math.PI) / 180);
    expect(haversineMi(41.8, -87.6, 41.8, -87.61)).toBeCloseTo(flat, 5);
  });
  it('is zero for the same point', () => {
    expect(haversineMi(41.8, -87.6, 41.8, -87.6)).toBe(0);
  });
});
