// Build-time only (scripts/derive-reference.ts): CCAO neighbourhood and township polygons -> simplified, rounded,
// validated GeoJSON with fixed property sets. Never imported by the running service.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_DERIVATION } from '../../registry/groups/reference-derivation.js';
import type { MultiPolygonGeometry, PolygonCoords } from '../geo.js';
import { collapsesOnGrid, simplifyPolygon } from './simplify.js';

type RawFeature = { properties: Record<string, string | number | null>; geometry: { type: string; coordinates: unknown } };
export type GeometryStats = { features: number; parts: number; partsDroppedBelowGrid: number; partsOffTolerance: number; vertices: number };

/** Reads a raw CCAO GeoJSON file (CRS84 lon/lat, every geometry a Polygon or MultiPolygon). */
export function readRawFeatures(path: string): RawFeature[] {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { features: RawFeature[] };
  return doc.features;
}

export function rawPolygons(f: RawFeature): PolygonCoords[] {
  if (f.geometry.type === 'Polygon') return [f.geometry.coordinates as PolygonCoords];
  if (f.geometry.type === 'MultiPolygon') return f.geometry.coordinates as PolygonCoords[];
  throw new Error(`unsupported geometry type ${f.geometry.type}`);
}

/** Codes such as 10.0 (numeric in town_shp) and '10' (string in nbhd_shp) both become '10'. */
export function codeString(v: string | number | null | undefined, label: string): string {
  if (v === null || v === undefined || v === '') throw new Error(`missing ${label}`);
  const n = Number(v);
  return Number.isInteger(n) ? String(v).replace(/\.0+$/, '') : String(v);
}

function simplifyFeatureGeometry(f: RawFeature, label: string, stats: GeometryStats): MultiPolygonGeometry {
  const { simplify_tolerance_deg: tol, coord_decimals: dec, simplify_retry_halvings: halvings } = REFERENCE_DERIVATION.v;
  const parts: PolygonCoords[] = [];
  for (const poly of rawPolygons(f)) {
    stats.parts++;
    if (collapsesOnGrid(poly, dec)) { stats.partsDroppedBelowGrid++; continue; }
    const s = simplifyPolygon(poly, tol, dec, halvings);
    if (!s) throw new Error(`${label}: no tolerance gives a valid polygon on the 1e-${dec} grid`);
    if (s.tolUsedDeg !== tol) stats.partsOffTolerance++;
    for (const ring of s.coords) stats.vertices += ring.length;
    parts.push(s.coords);
  }
  if (parts.length === 0) throw new Error(`${label}: every part collapsed on the grid`);
  return { type: 'MultiPolygon', coordinates: parts };
}

function featureCollectionText(features: Array<{ properties: Record<string, string>; geometry: MultiPolygonGeometry }>): string {
  // one feature per line: small diffs when the derivation changes, still valid JSON
  const lines = features.map((f) => JSON.stringify({ type: 'Feature', properties: f.properties, geometry: f.geometry }));
  return `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}\n`;
}

export function deriveNeighborhoods(rawDir: string): { text: string; stats: GeometryStats } {
  const raw = readRawFeatures(join(rawDir, 'ccao-ccao', 'nbhd_shp.geojson'));
  const stats: GeometryStats = { features: 0, parts: 0, partsDroppedBelowGrid: 0, partsOffTolerance: 0, vertices: 0 };
  const out = raw.map((f) => {
    const p = f.properties;
    const properties = {
      town_nbhd: codeString(p.town_nbhd, 'town_nbhd'),
      township_code: codeString(p.township_code, 'township_code'),
      township_name: String(p.township_name),
      triad_code: codeString(p.triad_code, 'triad_code'),
      triad_name: String(p.triad_name),
    };
    stats.features++;
    return { properties, geometry: simplifyFeatureGeometry(f, `nbhd ${properties.town_nbhd}`, stats) };
  });
  out.sort((a, b) => a.properties.town_nbhd.localeCompare(b.properties.town_nbhd));
  return { text: featureCollectionText(out), stats };
}

export function deriveTownships(rawDir: string): { text: string; stats: GeometryStats } {
  const raw = readRawFeatures(join(rawDir, 'ccao-ccao', 'town_shp.geojson'));
  const stats: GeometryStats = { features: 0, parts: 0, partsDroppedBelowGrid: 0, partsOffTolerance: 0, vertices: 0 };
  const out = raw.map((f) => {
    const p = f.properties;
    const properties = {
      township_code: codeString(p.township_code, 'township_code'),
      township_name: String(p.township_name),
      triad_code: codeString(p.triad_code, 'triad_code'),
    };
    stats.features++;
    return { properties, geometry: simplifyFeatureGeometry(f, `township ${properties.township_code}`, stats) };
  });
  out.sort((a, b) => Number(a.properties.township_code) - Number(b.properties.township_code));
  return { text: featureCollectionText(out), stats };
}
