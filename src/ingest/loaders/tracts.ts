// Loader for tracts.geojson: a FeatureCollection of Cook (17031) and Lake (17097) census tracts with polygons.
// Every feature is validated (GEOID, county, muni, vintage, geometry); the result is sorted by GEOID.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { TRACTS_GEOJSON } from '../layouts.js';
import { geometryBbox, type Bbox, type PolygonGeometry } from '../../store/tract-locator.js';
import { invalidFile } from './fields.js';
import { assertNotTruthPath, newStats, skip, type FileStats } from './run.js';

export type TractRecord = {
  geoid: string; //  11 digits
  county: 'cook' | 'lake';
  name: string | null; // NAMELSAD
  muni: string | null;
  vintage: string;
  polygon: PolygonGeometry;
  bbox: Bbox;
};

const COUNTY_BY_FP: Record<string, 'cook' | 'lake'> = { '031': 'cook', '097': 'lake' };
const ILLINOIS_FIPS = '17';

type Feature = { type?: unknown; properties?: Record<string, unknown> | null; geometry?: { type?: unknown; coordinates?: unknown } | null };

export function loadTracts(path: string): { tracts: TractRecord[]; stats: FileStats } {
  assertNotTruthPath(path);
  const file = TRACTS_GEOJSON.file;
  const stats = newStats(file);
  const bytes = readFileSync(path);
  stats.bytes = bytes.length;
  stats.sha256 = createHash('sha256').update(bytes).digest('hex');
  let doc: { type?: unknown; features?: unknown };
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw invalidFile(file, null, null, `not valid JSON (${(e as Error).message})`);
  }
  if (doc?.type !== 'FeatureCollection' || !Array.isArray(doc.features)) throw invalidFile(file, null, null, 'not a GeoJSON FeatureCollection');
  const seen = new Set<string>();
  const tracts: TractRecord[] = [];
  (doc.features as Feature[]).forEach((feat, i) => {
    stats.rowsRead++;
    const t = parseFeature(file, feat, i + 1);
    if (t === null) return skip(stats, 'county_not_cook_or_lake');
    if (seen.has(t.geoid)) throw invalidFile(file, { row: i + 1, line: 0 }, 'GEOID', 'duplicate GEOID', t.geoid);
    seen.add(t.geoid);
    tracts.push(t);
    stats.rowsKept++;
  });
  tracts.sort((a, b) => (a.geoid < b.geoid ? -1 : a.geoid > b.geoid ? 1 : 0));
  return { tracts, stats };
}

function parseFeature(file: string, feat: Feature, n: number): TractRecord | null {
  const pos = { row: n, line: 0 };
  const props = feat?.properties;
  if (feat?.type !== 'Feature' || props === null || typeof props !== 'object') throw invalidFile(file, pos, null, 'not a GeoJSON Feature with properties');
  for (const k of TRACTS_GEOJSON.requiredProperties) {
    if (!(k in props)) throw invalidFile(file, pos, k, 'required property is missing');
  }
  const geoid = String(props.GEOID ?? '');
  if (!/^\d{11}$/.test(geoid)) throw invalidFile(file, pos, 'GEOID', 'not an 11-digit census tract GEOID', geoid);
  const fp = String(props.COUNTYFP ?? '').padStart(3, '0');
  const county = COUNTY_BY_FP[fp];
  if (county === undefined || !geoid.startsWith(ILLINOIS_FIPS)) return null;
  if (geoid.slice(2, 5) !== fp) throw invalidFile(file, pos, 'COUNTYFP', `county ${fp} does not match GEOID ${geoid}`, fp);
  const vintage = props.vintage;
  if (typeof vintage !== 'string' || vintage === '') throw invalidFile(file, pos, 'vintage', 'vintage must be a non-empty string', String(vintage));
  const muni = props.muni === null || props.muni === '' ? null : String(props.muni);
  const name = typeof props.NAMELSAD === 'string' ? props.NAMELSAD : null;
  const polygon = checkGeometry(file, pos, feat.geometry);
  return { geoid, county, name, muni, vintage, polygon, bbox: geometryBbox(polygon) };
}

function checkGeometry(file: string, pos: { row: number; line: number }, g: Feature['geometry']): PolygonGeometry {
  const bad = (why: string): never => {
    throw invalidFile(file, pos, 'geometry', why);
  };
  if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon') || !Array.isArray(g.coordinates)) return bad('geometry must be a Polygon or MultiPolygon');
  const polys = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as unknown[];
  if (polys.length === 0) bad('empty geometry');
  for (const rings of polys) {
    if (!Array.isArray(rings) || rings.length === 0) bad('polygon without rings');
    for (const ring of rings as unknown[]) {
      if (!Array.isArray(ring) || ring.length < 4) bad('ring with fewer than 4 positions');
      for (const p of ring as unknown[]) {
        if (!Array.isArray(p) || !Number.isFinite(p[0]) || !Number.isFinite(p[1]) || Math.abs(p[0]) > 180 || Math.abs(p[1]) > 90) bad('bad lon/lat position');
      }
    }
  }
  return { type: g.type, coordinates: g.coordinates } as PolygonGeometry;
}
