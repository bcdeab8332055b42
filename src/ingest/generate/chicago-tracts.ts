// Chicago tracts from the real GEOIDs (generator 3.0.0): each real tract is the Voronoi cell of its real Census
// internal point (data/reference/chicago_tracts.csv), cut by the real CCAO neighborhood polygons of the city's
// townships. A tract that crosses neighborhood lines becomes several pieces (one per neighborhood, so each piece knows
// its neighborhood); tracts.geojson merges the pieces of a GEOID back into one feature.
import { bboxOf, type BBox, type MultiPolygonGeometry, type Position } from '../../reference/geo.js';
import type { ChicagoTract } from '../../reference/types.js';
import { areaDeg2, centroidOf, clipToCell, voronoiCell } from './geometry.js';

export type NbhdShape = { townNbhd: string; g: MultiPolygonGeometry; box: BBox; area: number };
export type ChicagoPiece = { tract: ChicagoTract; nbhdIdx: number; g: MultiPolygonGeometry; area: number; lon: number; lat: number };

const overlaps = (a: BBox, b: BBox): boolean => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/**
 * Pieces of every real tract inside the given (city) neighborhoods, in GEOID then neighborhood order. Slivers under
 * `sliverDeg2` are dropped. Returns the pieces and the GEOIDs whose cell meets none of the neighborhoods.
 */
export function chicagoPieces(tracts: readonly ChicagoTract[], nbhds: readonly NbhdShape[], sliverDeg2: number): { pieces: ChicagoPiece[]; unplaced: string[] } {
  const seeds: Position[] = tracts.map((t) => [t.lon, t.lat]);
  const box: BBox = nbhds.reduce<BBox>((b, n) => [Math.min(b[0], n.box[0]), Math.min(b[1], n.box[1]), Math.max(b[2], n.box[2]), Math.max(b[3], n.box[3])], [Infinity, Infinity, -Infinity, -Infinity]);
  const pad: BBox = [box[0] - 0.01, box[1] - 0.01, box[2] + 0.01, box[3] + 0.01];
  const cosLat = Math.cos((((box[1] + box[3]) / 2) * Math.PI) / 180);
  const pieces: ChicagoPiece[] = [];
  const unplaced: string[] = [];
  tracts.forEach((t, i) => {
    const cell = voronoiCell(seeds, i, pad, cosLat);
    const cellBox = bboxOf({ type: 'Polygon', coordinates: [[...cell, cell[0]]] });
    let placed = false;
    nbhds.forEach((n, k) => {
      if (!overlaps(cellBox, n.box)) return;
      const g = clipToCell(n.g, cell, sliverDeg2);
      if (g === null) return;
      const [lon, lat] = centroidOf(g);
      pieces.push({ tract: t, nbhdIdx: k, g, area: areaDeg2(g), lon, lat });
      placed = true;
    });
    if (!placed) unplaced.push(t.geoid);
  });
  return { pieces, unplaced };
}
