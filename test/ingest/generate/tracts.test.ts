// The tracts: 1,662 with Census-shaped GEOIDs (Chicago's the real ones), valid polygons, every Cook tract polygon inside
// one real neighborhood polygon, Lake tracts inside the outline, and parcels carrying the tract that contains them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../../src/ingest/generate/generate.js';
import { lakeOutline } from '../../../src/ingest/generate/lake.js';
import { bboxOf, pointInPolygon, type Position } from '../../../src/reference/geo.js';
import { loadChicagoTracts, loadNeighborhoods } from '../../../src/reference/load.js';
import { distToBoundaryDeg, readCsv, readTracts, ringProblem, type TractFeature } from './support.js';

/** A vertex may sit on the neighborhood edge it was clipped to: 1e-9 degrees is ~0.1 mm of float slack. */
const ON_EDGE_DEG = 1e-9;
let dir: string;
let tracts: TractFeature[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'avm-gen-tracts-'));
  await generateCorpus({ seed: 5, scale: 'test', outDir: dir });
  tracts = readTracts(join(dir, 'raw'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** First tract in file order whose polygon holds the point (the first-match rule the generator documents). */
function tractAt(lon: number, lat: number, boxes: ReturnType<typeof bboxOf>[]): string | null {
  for (let i = 0; i < tracts.length; i++) {
    const b = boxes[i];
    if (lon < b[0] || lon > b[2] || lat < b[1] || lat > b[3]) continue;
    if (pointInPolygon(lon, lat, tracts[i].geometry)) return tracts[i].properties.GEOID;
  }
  return null;
}

describe('tracts.geojson', () => {
  it('holds exactly 1,662 tracts: 1,502 Cook (17031) and 160 Lake (17097), unique 11-digit GEOIDs', () => {
    expect(tracts.length).toBe(1662);
    const ids = tracts.map((t) => t.properties.GEOID);
    expect(ids.every((g) => /^\d{11}$/.test(g))).toBe(true);
    expect(new Set(ids).size).toBe(1662);
    expect(ids.filter((g) => g.startsWith('17031')).length).toBe(1502);
    expect(ids.filter((g) => g.startsWith('17097')).length).toBe(160);
    for (const t of tracts) {
      expect(t.properties.COUNTYFP).toBe(t.properties.GEOID.slice(2, 5));
      expect(t.properties.vintage).toContain('synthetic');
      expect(t.properties.NAMELSAD).toMatch(/^Census Tract \d+(\.\d\d)?$/);
      expect(t.properties.muni.length).toBeGreaterThan(0);
    }
    expect(tracts.some((t) => t.properties.muni === 'Chicago')).toBe(true);
    expect(tracts.filter((t) => t.properties.COUNTYFP === '097').map((t) => t.properties.muni)).toContain('Waukegan');
  });

  it('has only valid rings: closed, 4+ positions, non-zero area, no crossing edges', () => {
    const problems: string[] = [];
    for (const t of tracts) {
      for (const poly of t.geometry.coordinates) {
        for (const ring of poly) {
          const p = ringProblem(ring);
          if (p) problems.push(`${t.properties.GEOID}: ${p}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('uses the real Chicago GEOIDs and names: all 803 Cook ones but 17031810501 (internal point outside the city townships)', () => {
    const real = loadChicagoTracts();
    const chicago = tracts.filter((t) => t.properties.muni === 'Chicago');
    expect(new Set(chicago.map((t) => t.properties.GEOID))).toEqual(new Set(real.map((t) => t.geoid).filter((g) => g !== '17031810501')));
    const name = new Map(real.map((t) => [t.geoid, t.name]));
    expect(chicago.every((t) => t.properties.NAMELSAD === `Census ${name.get(t.properties.GEOID)}`)).toBe(true);
    expect(chicago.every((t) => t.properties.vintage.includes('real GEOIDs'))).toBe(true);
  });

  it('keeps every polygon of a Cook tract inside (or on the edge of) one real neighborhood polygon', () => {
    const nbhds = loadNeighborhoods().features;
    const boxes = nbhds.map((n) => bboxOf(n.geometry));
    const outside: string[] = [];
    // A real Chicago tract crossing neighborhood lines is one polygon per neighborhood: each polygon is checked alone.
    for (const [geoid, poly] of tracts.filter((x) => x.properties.COUNTYFP === '031').flatMap((t) => t.geometry.coordinates.map((c) => [t.properties.GEOID, c] as const))) {
      const t = { properties: { GEOID: geoid } };
      const verts: Position[] = poly.flatMap((ring) => ring);
      const within = (k: number): boolean =>
        verts.every((v) => pointInPolygon(v[0], v[1], nbhds[k].geometry) || distToBoundaryDeg(v, nbhds[k].geometry.coordinates) < ON_EDGE_DEG);
      const [cx, cy] = verts[0];
      const candidates = nbhds.map((_, k) => k).filter((k) => cx >= boxes[k][0] - 1e-6 && cx <= boxes[k][2] + 1e-6 && cy >= boxes[k][1] - 1e-6 && cy <= boxes[k][3] + 1e-6);
      if (!candidates.some(within)) outside.push(t.properties.GEOID);
    }
    expect(outside).toEqual([]);
  });

  it('keeps every Lake tract vertex inside (or on the edge of) the county outline', () => {
    const outline = lakeOutline();
    const bad = tracts
      .filter((t) => t.properties.COUNTYFP === '097')
      .flatMap((t) => t.geometry.coordinates.flat(2).filter((v) => !pointInPolygon(v[0], v[1], outline) && distToBoundaryDeg(v, outline.coordinates) >= ON_EDGE_DEG));
    expect(bad).toEqual([]);
  });
});

describe('parcel tract assignment', () => {
  it('gives each sampled Cook parcel the tract containing its lat/lon', () => {
    const boxes = tracts.map((t) => bboxOf(t.geometry));
    const uni = readCsv(join(dir, 'raw', 'ccao_parcel_universe.csv'));
    const sample = uni.filter((_, i) => i % Math.ceil(uni.length / 1500) === 0);
    const wrong = sample.filter((r) => tractAt(Number(r.lon), Number(r.lat), boxes) !== r.census_tract_geoid);
    expect(sample.length).toBeGreaterThan(1000);
    expect(wrong).toEqual([]);
  });

  it('gives each Lake sale the tract containing its lat/lon (tract from the truth file)', () => {
    const boxes = tracts.map((t) => bboxOf(t.geometry));
    const truth = new Map(readCsv(join(dir, 'truth', 'sales_truth.csv')).map((r) => [r.row_id, r.census_tract_geoid]));
    const lake = readCsv(join(dir, 'raw', 'lake_gis_sales.csv'));
    const wrong = lake.filter((r) => tractAt(Number(r.LONGITUDE), Number(r.LATITUDE), boxes) !== truth.get(r.DOC_NUM));
    expect(lake.length).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
  });
});
