// Point-in-tract lookup for hundreds of thousands of parcels: a uniform lon/lat grid lists the tracts whose bounding
// box touches each cell; the exact test is reference/geo.ts pointInPolygon. The one polygon index: ingest joins parcels
// to tracts with it and the generator places each parcel inside its own tract with it, so both agree.
import { INGEST } from '../registry/groups/ingest.js';
import { pointInPolygon, type AreaGeometry } from '../reference/geo.js';

export type Position = readonly number[];
export type PolygonGeometry = { type: 'Polygon'; coordinates: Position[][] } | { type: 'MultiPolygon'; coordinates: Position[][][] };
/** [minLon, minLat, maxLon, maxLat] */
export type Bbox = [number, number, number, number];

export class TractLocator {
  private readonly bboxes: Bbox[];
  private readonly cells = new Map<number, number[]>();
  private readonly cellDeg = INGEST.v.tract_grid_cell_deg;

  /** `geometries[i]` is tract i; lookups return that index, the lowest index when a point lies on a shared border. */
  constructor(private readonly geometries: readonly PolygonGeometry[]) {
    this.bboxes = geometries.map(geometryBbox);
    this.bboxes.forEach((b, tract) => {
      const [x0, y0, x1, y1] = b.map((v) => Math.floor(v / this.cellDeg));
      for (let cx = x0; cx <= x1; cx++) for (let cy = y0; cy <= y1; cy++) {
        const key = cellKey(cx, cy);
        const list = this.cells.get(key);
        if (list) list.push(tract);
        else this.cells.set(key, [tract]);
      }
    });
  }

  /** Index of the tract containing (lon, lat), or -1. */
  locate(lon: number, lat: number): number {
    const list = this.cells.get(cellKey(Math.floor(lon / this.cellDeg), Math.floor(lat / this.cellDeg)));
    if (!list) return -1;
    for (const tract of list) { // ascending tract order: the first hit is the lowest index
      const b = this.bboxes[tract];
      if (lon < b[0] || lon > b[2] || lat < b[1] || lat > b[3]) continue;
      if (pointInPolygon(lon, lat, this.geometries[tract] as AreaGeometry)) return tract;
    }
    return -1;
  }
}

function cellKey(cx: number, cy: number): number {
  return (cx + 40_000) * 100_000 + (cy + 40_000); // shifts keep negative longitudes positive; exact in float64
}

/** Bounding box of a Polygon or MultiPolygon (outer rings). */
export function geometryBbox(g: PolygonGeometry): Bbox {
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  const b: Bbox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const rings of polys) for (const p of rings[0] ?? []) {
    if (p[0] < b[0]) b[0] = p[0];
    if (p[1] < b[1]) b[1] = p[1];
    if (p[0] > b[2]) b[2] = p[0];
    if (p[1] > b[3]) b[3] = p[1];
  }
  return b;
}
