// Inventory search `geography`: what the caller typed, resolved to a predicate on listing rows. A name that is no kind
// this file knows is a validation_failed naming the kinds, never a silent empty page. Reference data (polygons, group
// names) is indexed once per process; only the tract municipalities come from the caller.
import { AppError } from '../errors/app-error.js';
import { loadMuniTaxRates, loadNeighborhoodGroups, loadNeighborhoods, loadTownships, normalizeMunicipality } from '../reference/load.js';
import type { NeighborhoodGroup } from '../reference/types.js';
import { TractLocator, type PolygonGeometry } from '../store/tract-locator.js';
import type { GeographyResolver } from './inventory.js';
import type { ScoredListing } from './rows.js';

/** What `geography` accepts, in the words of the unknown-name error. */
export const GEOGRAPHY_KINDS = 'a 5-digit ZIP, a municipality (Evanston), a Cook County (CCAO) township (Lake View, Hyde Park), '
  + 'a 5-digit CCAO neighborhood code (town_nbhd, 74011) or a CCAO neighborhood group (Lake View 1, Lake View, oak_park)';

/** The source's spellings that differ from the township and municipality they name; both spellings are accepted. */
const GROUP_SPELLINGS: Record<string, string> = { berywn: 'berwyn' };

/** Polygon locators and name indexes over data/reference; every name key is normalized by `geographyKey`. */
export type GeographyIndex = {
  nbhdLocator: TractLocator;
  /** town_nbhd of each neighborhood polygon, in locator order */
  nbhdCodes: readonly string[];
  townshipLocator: TractLocator;
  townshipByName: ReadonlyMap<string, number>;
  /** group name, with and without its trailing number ('lake view 1', 'lake view'), → its town_nbhd codes */
  nbhdsByGroup: ReadonlyMap<string, ReadonlySet<string>>;
  /** Cook municipalities of the tax-rate file: real names even when no tract carries them */
  referenceMunis: ReadonlySet<string>;
};

/** Case, punctuation, underscores and runs of spaces ignored ('Oak_Park', 'oak  park.' → 'oak park'). */
export const geographyKey = normalizeMunicipality;

/** 'lake view 1' → ['lake view 1', 'lake view']; 'berywn' → ['berywn', 'berwyn']. */
function groupKeys(groupName: string): string[] {
  const full = geographyKey(groupName);
  const base = full.replace(/ \d+$/, '');
  return [...new Set([full, base, GROUP_SPELLINGS[full] ?? full])];
}

export function groupIndex(groups: readonly NeighborhoodGroup[]): Map<string, Set<string>> {
  const byKey = new Map<string, Set<string>>();
  for (const g of groups) for (const k of groupKeys(g.groupName)) (byKey.get(k) ?? byKey.set(k, new Set()).get(k)!).add(g.townNbhd);
  return byKey;
}

export function buildGeographyIndex(): GeographyIndex {
  const nbhds = loadNeighborhoods().features;
  const towns = loadTownships().features;
  return {
    nbhdLocator: new TractLocator(nbhds.map((f) => f.geometry as PolygonGeometry)),
    nbhdCodes: nbhds.map((f) => f.properties.town_nbhd),
    townshipLocator: new TractLocator(towns.map((f) => f.geometry as PolygonGeometry)),
    townshipByName: new Map(towns.map((f, i) => [geographyKey(f.properties.township_name), i])),
    nbhdsByGroup: groupIndex(loadNeighborhoodGroups()),
    referenceMunis: new Set(loadMuniTaxRates().map((r) => geographyKey(r.municipality))),
  };
}

let referenceIndex: GeographyIndex | null = null;
/** The index over the committed reference files, built on first use and kept for the process. */
export const referenceGeography = (): GeographyIndex => (referenceIndex ??= buildGeographyIndex());

type RowTest = (r: ScoredListing) => boolean;

function inNeighborhoods(ix: GeographyIndex, codes: ReadonlySet<string>): RowTest {
  return (r) => {
    const i = ix.nbhdLocator.locate(r.lon, r.lat);
    return i >= 0 && codes.has(ix.nbhdCodes[i]);
  };
}

/**
 * A 5-digit string is a CCAO neighborhood code when one has that code (none starts with 6, so no ZIP is shadowed),
 * else a ZIP. A name matches every kind it names (Lake View is a township and a group base; Evanston a township and a
 * municipality): a row passes when it lies in any of them. Rows are placed by lat/lon in the polygons (a point in a
 * simplification gap between polygons is in none) and in a municipality by their tract.
 */
export function geographyResolver(tracts: ReadonlyArray<{ geoid: string; muni: string | null }>, ix: GeographyIndex = referenceGeography()): GeographyResolver {
  const muniOfTract = new Map(tracts.map((t) => [t.geoid, t.muni === null ? null : geographyKey(t.muni)]));
  const knownMunis = new Set([...ix.referenceMunis, ...muniOfTract.values()]);
  return (geography) => {
    const asTyped = geography.trim();
    if (/^\d{5}$/.test(asTyped)) return ix.nbhdCodes.includes(asTyped) ? inNeighborhoods(ix, new Set([asTyped])) : (r) => r.zip === asTyped;
    const want = geographyKey(asTyped);
    const tests: RowTest[] = [];
    if (want !== '' && knownMunis.has(want)) tests.push((r) => r.valuation.tract_geoid !== null && muniOfTract.get(r.valuation.tract_geoid) === want);
    const township = ix.townshipByName.get(want);
    if (township !== undefined) tests.push((r) => ix.townshipLocator.locate(r.lon, r.lat) === township);
    const group = ix.nbhdsByGroup.get(want);
    if (group) tests.push(inNeighborhoods(ix, group));
    if (tests.length === 0) {
      throw new AppError('validation_failed', `geography ${JSON.stringify(geography)} is not a known place: use ${GEOGRAPHY_KINDS}. `
        + 'Chicago community areas (Logan Square) are not supported: the reference data has no community-area boundaries.');
    }
    return (r) => tests.some((t) => t(r));
  };
}
