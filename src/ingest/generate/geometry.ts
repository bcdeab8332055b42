// Planar helpers the generator needs beyond src/reference/geo.ts: ring area and centroid, Voronoi cells by
// half-plane clipping, sampling points inside a polygon. "Which tract contains a point" is store/tract-locator.ts.
import polygonClipping, { type MultiPolygon as ClipMulti, type Ring as ClipRing } from 'polygon-clipping';
import { pointInPolygon, type AreaGeometry, type BBox, type MultiPolygonGeometry, type Position } from '../../reference/geo.js';
import type { Rng } from './rng.js';

/** Miles per degree of latitude (mean Earth radius 3958.8 mi x pi / 180). */
export const MI_PER_DEG_LAT = 69.09;

/** Squared distance in miles on the local plane (equirectangular; fine within a county). */
export function dist2Mi(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dy = (lat2 - lat1) * MI_PER_DEG_LAT;
  const dx = (lon2 - lon1) * MI_PER_DEG_LAT * Math.cos(((lat1 + lat2) / 2) * (Math.PI / 180));
  return dx * dx + dy * dy;
}

/** Signed shoelace area of one ring in squared degrees (counter-clockwise positive). */
export function ringAreaDeg2(ring: readonly Position[]): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) s += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return s / 2;
}

/** Unsigned area of a (multi)polygon in squared degrees, holes subtracted. */
export function areaDeg2(g: AreaGeometry): number {
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  let a = 0;
  for (const poly of polys) poly.forEach((ring, k) => (a += (k === 0 ? 1 : -1) * Math.abs(ringAreaDeg2(ring))));
  return a;
}

/** Area-weighted centroid of the outer rings (holes ignored: good enough to place a label or a kernel). */
export function centroidOf(g: AreaGeometry): Position {
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  let sx = 0, sy = 0, sa = 0;
  for (const poly of polys) {
    const ring = poly[0];
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const cross = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
      sx += (ring[j][0] + ring[i][0]) * cross;
      sy += (ring[j][1] + ring[i][1]) * cross;
      sa += cross;
    }
  }
  return [sx / (3 * sa), sy / (3 * sa)];
}

/** Uniform random point inside the geometry by rejection from its bounding box; throws after `maxTries` misses. */
export function samplePointIn(g: AreaGeometry, box: BBox, rng: Rng, maxTries = 10_000): Position {
  for (let t = 0; t < maxTries; t++) {
    const lon = rng.uniform(box[0], box[2]);
    const lat = rng.uniform(box[1], box[3]);
    if (pointInPolygon(lon, lat, g)) return [lon, lat];
  }
  throw new Error('samplePointIn: no point found inside the polygon');
}

/**
 * Voronoi cell of seeds[i] within the rectangle `box`, as a convex ring: the rectangle clipped by the bisector
 * half-plane of every other seed (Sutherland-Hodgman against a convex window is exact). Distances are measured with
 * longitude scaled by cos(latitude) so cells are Voronoi in miles, not in degrees.
 */
export function voronoiCell(seeds: readonly Position[], i: number, box: BBox, cosLat: number): Position[] {
  let poly: Position[] = [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]];
  const [sx, sy] = seeds[i];
  for (let j = 0; j < seeds.length && poly.length > 0; j++) {
    if (j === i) continue;
    const nx = (seeds[j][0] - sx) * cosLat * cosLat;
    const ny = seeds[j][1] - sy;
    const mx = (seeds[j][0] + sx) / 2, my = (seeds[j][1] + sy) / 2;
    poly = clipHalfPlane(poly, (p) => (p[0] - mx) * nx + (p[1] - my) * ny);
  }
  return poly;
}

/** Keeps the part of a convex polygon where side(p) <= 0. */
function clipHalfPlane(poly: Position[], side: (p: Position) => number): Position[] {
  const out: Position[] = [];
  for (let k = 0; k < poly.length; k++) {
    const a = poly[k], b = poly[(k + 1) % poly.length];
    const da = side(a), db = side(b);
    if (da <= 0) out.push(a);
    if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
      const t = da / (da - db);
      out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
    }
  }
  return out;
}

/** Intersection of a (multi)polygon with a convex ring, dropping slivers below `minAreaDeg2`; null when empty. */
export function clipToCell(g: AreaGeometry, cell: Position[], minAreaDeg2: number): MultiPolygonGeometry | null {
  const subject = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as unknown as ClipMulti;
  const ring = [...cell, cell[0]] as ClipRing;
  const parts = polygonClipping.intersection(subject, [ring]) as unknown as Position[][][];
  const kept = parts.filter((poly) => areaDeg2({ type: 'Polygon', coordinates: poly }) >= minAreaDeg2);
  return kept.length > 0 ? { type: 'MultiPolygon', coordinates: kept } : null;
}
