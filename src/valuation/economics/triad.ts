// The Cook reassessment triad of a point, from the real CCAO township polygons (data/reference/townships.geojson):
// triad 1 City, 2 North, 3 South/West. Null outside Cook's townships.
import { loadTownships } from '../../reference/load.js';
import { bboxOf, inBBox, pointInPolygon } from '../../reference/geo.js';
import type { Triad } from './tax.js';

const TRIAD_BY_CODE: Record<string, Triad> = { '1': 'city', '2': 'north', '3': 'south_west' };

let townships: Array<{ triad: Triad | null; bbox: ReturnType<typeof bboxOf>; geometry: Parameters<typeof pointInPolygon>[2] }> | null = null;

export function cookTriadAt(lat: number, lon: number): Triad | null {
  townships ??= loadTownships().features.map((f) => ({ triad: TRIAD_BY_CODE[String(f.properties.triad_code)] ?? null, bbox: bboxOf(f.geometry), geometry: f.geometry }));
  for (const t of townships) if (inBBox(lon, lat, t.bbox) && pointInPolygon(lon, lat, t.geometry)) return t.triad;
  return null;
}
