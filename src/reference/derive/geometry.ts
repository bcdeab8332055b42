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

type LayerSpec<P extends Record<string, string>> = {
  file: string;
  properties: (p: RawFeature['properties']) => P;
  label: (p: P) => string;
  compare: (a: P, b: P) => number;
};

/** One polygon layer: read the raw file, fix its property set, simplify every feature, sort by the layer's key. */
function deriveLayer<P extends Record<string, string>>(rawDir: string, spec: LayerSpec<P>): { text: string; stats: GeometryStats } {
  const raw = readRawFeatures(join(rawDir, 'ccao-ccao', spec.file));
  const stats: GeometryStats = { features: 0, parts: 0, partsDroppedBelowGrid: 0, partsOffTolerance: 0, vertices: 0 };
  const out = raw.map((f) => {
    const properties = spec.properties(f.properties);
    stats.features++;
    return { properties, geometry: simplifyFeatureGeometry(f, spec.label(properties), stats) };
  });
  out.sort((a, b) => spec.compare(a.properties, b.properties));
  return { text: featureCollectionText(out), stats };
}

export function deriveNeighborhoods(rawDir: string): { text: string; stats: GeometryStats } {
  return deriveLayer(rawDir, {
    file: 'nbhd_shp.geojson',
    properties: (p) => ({
      town_nbhd: codeString(p.town_nbhd, 'town_nbhd'),
      township_code: codeString(p.township_code, 'township_code'),
      township_name: String(p.township_name),
      triad_code: codeString(p.triad_code, 'triad_code'),
      triad_name: String(p.triad_name),
    }),
    label: (p) => `nbhd ${p.town_nbhd}`,
    compare: (a, b) => a.town_nbhd.localeCompare(b.town_nbhd),
  });
}

export function deriveTownships(rawDir: string): { text: string; stats: GeometryStats } {
  return deriveLayer(rawDir, {
    file: 'town_shp.geojson',
    properties: (p) => ({
      township_code: codeString(p.township_code, 'township_code'),
      township_name: String(p.township_name),
      triad_code: codeString(p.triad_code, 'triad_code'),
    }),
    label: (p) => `township ${p.township_code}`,
    compare: (a, b) => Number(a.township_code) - Number(b.township_code),
  });
}
