// geographyResolver(tracts): ZIP, municipality, CCAO township, CCAO neighborhood code and neighborhood group, matched
// case- and punctuation-insensitively on listings placed inside real polygons of data/reference; unknown names refused.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { geographyResolver, groupIndex, referenceGeography } from '../../src/listings/geography.js';
import { searchInventory } from '../../src/listings/inventory.js';
import { buildScoredListing, type ScoredListing } from '../../src/listings/rows.js';
import { pointInPolygon } from '../../src/reference/geo.js';
import { loadNeighborhoods } from '../../src/reference/load.js';
import { listing, pointScore } from './support.js';

/**
 * Each point is an interior point of the named neighborhood polygon, found on a 40 x 40 grid over its bounding box as
 * the grid point farthest from the polygon's edges (240-630 m from them), so simplification gaps cannot reach it.
 */
const PLACES = [
  { id: 'LV1', nbhd: '73011', lon: -87.6812, lat: 41.9906, zip: '60660', muni: 'Chicago' }, // Lake View township, group Lake View 1
  { id: 'LV3', nbhd: '73031', lon: -87.6698, lat: 41.9814, zip: '60640', muni: 'Chicago' }, // Lake View township, group Lake View 3
  { id: 'HP2', nbhd: '70210', lon: -87.6164, lat: 41.6803, zip: '60628', muni: 'Chicago' }, // Hyde Park township, group Hyde Park 2
  { id: 'LK5', nbhd: '72151', lon: -87.6937, lat: 41.7554, zip: '60629', muni: 'Chicago' }, // Lake township, group Lake 5
  { id: 'BER', nbhd: '11010', lon: -87.79, lat: 41.8543, zip: '60402', muni: 'Berwyn' }, // Berwyn township, group berywn (sic)
  { id: 'OPK', nbhd: '27010', lon: -87.7911, lat: 41.9054, zip: '60302', muni: 'Oak Park' }, // Oak Park township, group oak_park
  { id: 'EVN', nbhd: '17011', lon: -87.7246, lat: 42.0585, zip: '60076', muni: 'Evanston' }, // Evanston township, no group
  { id: 'NTR', nbhd: '23010', lon: -87.7773, lat: 42.1451, zip: '60093', muni: 'Winnetka' }, // New Trier township, no group
  { id: 'LKF', nbhd: null, lon: -87.84, lat: 42.25, zip: '60045', muni: 'Lake Forest' }, // Lake County: in no Cook polygon
] as const;

const tractOf = (i: number) => `170310000${String(i).padStart(2, '0')}`;
const TRACTS = PLACES.map((p, i) => ({ geoid: tractOf(i), muni: p.muni }));

const ROWS: ScoredListing[] = PLACES.map((p, i) => {
  const r = buildScoredListing({
    listing: listing(p.id, { lat: p.lat, lon: p.lon, zip: p.zip }), score: pointScore(p.id, { brrrr: 0.5 }), percentiles: { flip: null, brrrr: 50, hold: null, house_hack: null },
    runId: 'run-1', runKind: 'manual', scoredAt: '2026-11-21T13:00:00.000Z', firstSeenAt: '2026-11-21T13:00:00.000Z', dedupeKey: p.id,
  });
  return { ...r, valuation: { ...r.valuation, tract_geoid: tractOf(i) } };
});

const resolve = geographyResolver(TRACTS);
const matching = (geography: string): string[] => ROWS.filter(resolve(geography)).map((r) => r.listing_id);

describe('geographyResolver fixtures', () => {
  it('places every fixture point inside its own neighborhood polygon', () => {
    const byCode = new Map(loadNeighborhoods().features.map((f) => [f.properties.town_nbhd, f.geometry]));
    for (const p of PLACES) if (p.nbhd !== null) expect(pointInPolygon(p.lon, p.lat, byCode.get(p.nbhd)!), p.id).toBe(true);
  });
});

describe('geographyResolver(tracts)(geography)', () => {
  it('matches a 5-digit ZIP against the listing ZIP, as before', () => {
    expect(matching('60045')).toEqual(['LKF']);
    expect(matching(' 60302 ')).toEqual(['OPK']);
    expect(matching('60999')).toEqual([]);
  });

  it('matches a municipality against the listing tract municipality', () => {
    expect(matching('Chicago')).toEqual(['LV1', 'LV3', 'HP2', 'LK5']);
    expect(matching('lake forest')).toEqual(['LKF']);
    expect(matching('Village of Oak Park')).toEqual(['OPK']);
  });

  it('accepts a real Cook municipality no tract carries, matching nothing rather than refusing', () => {
    expect(matching('Oak Brook')).toEqual([]);
  });

  it('matches a CCAO township by the township polygon containing the listing', () => {
    expect(matching('Hyde Park')).toEqual(['HP2']);
    expect(matching('New Trier')).toEqual(['NTR']);
    expect(matching('Lake')).toEqual(['LK5']); // Lake township (and the Lake N groups), not Lake View
  });

  it('matches a 5-digit CCAO neighborhood code by the neighborhood polygon containing the listing', () => {
    expect(matching('73011')).toEqual(['LV1']);
    expect(matching('73031')).toEqual(['LV3']);
    expect(matching('23010')).toEqual(['NTR']);
  });

  it('matches a numbered neighborhood group only on its own neighborhoods', () => {
    expect(matching('Lake View 1')).toEqual(['LV1']);
    expect(matching('Lake View 3')).toEqual(['LV3']);
    expect(matching('Hyde Park 2')).toEqual(['HP2']);
  });

  it('matches a group name without its trailing number on all its numbered groups', () => {
    expect(matching('Lake View')).toEqual(['LV1', 'LV3']);
    const ix = groupIndex([{ townNbhd: '73011', groupName: 'Lake View 1' }, { townNbhd: '73031', groupName: 'Lake View 3' }, { townNbhd: '72151', groupName: 'Lake 5' }]);
    expect([...ix.get('lake view')!]).toEqual(['73011', '73031']);
    expect([...ix.get('lake')!]).toEqual(['72151']);
  });

  it('accepts the source spelling of a group and the township spelling (berywn / Berwyn)', () => {
    expect(matching('berywn')).toEqual(['BER']);
    expect(matching('Berwyn')).toEqual(['BER']);
    expect(matching('oak_park')).toEqual(['OPK']);
  });

  it('ignores case, punctuation, underscores and extra spaces', () => {
    expect(matching('LAKE_VIEW_1')).toEqual(['LV1']);
    expect(matching('  hyde   park-2. ')).toEqual(['HP2']);
    expect(matching('OAK PARK')).toEqual(['OPK']);
    expect(matching('new-trier')).toEqual(['NTR']);
  });

  it('refuses an unknown name (a Chicago community area) with validation_failed naming the accepted kinds', () => {
    let err: unknown;
    try {
      resolve('Logan Square');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'validation_failed', status: 400, expose: true });
    for (const kind of ['ZIP', 'municipality', 'township', 'neighborhood code', 'neighborhood group', 'community areas']) expect((err as Error).message).toContain(kind);
    expect(() => resolve('!!!')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });

  it('builds the reference index once per process', () => {
    expect(referenceGeography()).toBe(referenceGeography());
  });
});

describe('searchInventory(rows, { geography }, resolver)', () => {
  it('filters by the resolver and answers an unknown name with validation_failed, not an empty page', () => {
    expect(searchInventory(ROWS, { geography: 'Lake View' }, resolve).results.map((r) => r.listing_id).sort()).toEqual(['LV1', 'LV3']);
    expect(() => searchInventory(ROWS, { geography: 'Logan Square' }, resolve)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });

  it('without a resolver matches a ZIP and refuses a name', () => {
    expect(searchInventory(ROWS, { geography: '60045' }).results.map((r) => r.listing_id)).toEqual(['LKF']);
    expect(() => searchInventory(ROWS, { geography: 'Chicago' })).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
