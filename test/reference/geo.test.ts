import { describe, expect, it } from 'vitest';
import { bboxOf, EARTH_RADIUS_MI, haversineFrom, haversineMi, haversineSkipBox, pointInPolygon, type AreaGeometry } from '../../src/reference/geo.js';
import { Rng } from '../../src/ingest/generate/rng.js';

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

describe('haversineSkipBox(lat0, radiusMi)', () => {
  it('skips only points haversineMi puts beyond the radius: 20,000 seeded points just past the box edges', () => {
    const rng = new Rng(20261127, 'skip-box');
    for (let t = 0; t < 20_000; t++) {
      const lat0 = rng.uniform(-80, 80), lon0 = rng.uniform(-179, 179), r = rng.uniform(0.05, 5);
      const { dLat, dLon } = haversineSkipBox(lat0, r);
      const past = 1 + 10 ** -rng.uniform(6, 15); // just outside the box
      const sign = () => (rng.chance(0.5) ? 1 : -1);
      const [lat, lon] = t % 2 === 0 || !Number.isFinite(dLon)
        ? [lat0 + sign() * dLat * past, lon0 + rng.uniform(-2, 2) * (Number.isFinite(dLon) ? dLon : dLat)]
        : [lat0 + rng.uniform(-1, 1) * dLat, lon0 + sign() * dLon * past];
      expect(haversineMi(lat0, lon0, lat, lon)).toBeGreaterThan(r);
    }
  });

  it('is a tight box: a point 99.9% of the radius away along either axis lies inside it', () => {
    for (const lat0 of [0, 41.9, 60]) {
      const { dLat, dLon } = haversineSkipBox(lat0, 0.5);
      expect(haversineMi(lat0, -87, lat0 + dLat * 0.999, -87)).toBeLessThan(0.5);
      expect(haversineMi(lat0, -87, lat0, -87 + dLon * 0.999)).toBeLessThan(0.5 * 1.01);
      expect(dLat / ((0.5 / EARTH_RADIUS_MI) * (180 / Math.PI))).toBeCloseTo(1, 8); // the radius plus its 1e-9 margin
    }
  });
});

describe('haversineFrom(lat1, lon1)', () => {
  it('gives haversineMi to the last bit, at 10,000 seeded point pairs', () => {
    const rng = new Rng(20261127, 'haversine-from');
    for (let t = 0; t < 10_000; t++) {
      const lat1 = rng.uniform(-85, 85), lon1 = rng.uniform(-180, 180);
      const from = haversineFrom(lat1, lon1);
      const lat2 = lat1 + rng.uniform(-2, 2), lon2 = lon1 + rng.uniform(-2, 2);
      expect(Object.is(from(lat2, lon2), haversineMi(lat1, lon1, lat2, lon2))).toBe(true);
    }
  });
});
