// Lake County geography for the generator: the synthetic county outline, the ZIP areas used for tract seeds and
// municipality names, and the relative price level of each ZIP area.
import type { MultiPolygonGeometry, Position } from '../../reference/geo.js';
import type { ZipCentroid } from '../../reference/types.js';
import { GENERATOR } from '../../registry/groups/generator.js';

/** USPS default city name of each Lake County ZIP used for tract municipality names (public USPS ZIP directory). */
export const LAKE_ZIP_CITY: Readonly<Record<string, string>> = {
  '60002': 'Antioch', '60010': 'Barrington', '60015': 'Deerfield', '60020': 'Fox Lake', '60030': 'Grayslake',
  '60031': 'Gurnee', '60035': 'Highland Park', '60040': 'Highwood', '60041': 'Ingleside', '60042': 'Island Lake',
  '60044': 'Lake Bluff', '60045': 'Lake Forest', '60046': 'Lake Villa', '60047': 'Lake Zurich', '60048': 'Libertyville',
  '60060': 'Mundelein', '60061': 'Vernon Hills', '60064': 'North Chicago', '60069': 'Lincolnshire', '60073': 'Round Lake',
  '60083': 'Wadsworth', '60084': 'Wauconda', '60085': 'Waukegan', '60087': 'Waukegan', '60089': 'Buffalo Grove',
  '60096': 'Winthrop Harbor', '60099': 'Zion',
};

/** The Lake County outline polygon from the constants (closed ring, counter-clockwise not required). */
export function lakeOutline(): MultiPolygonGeometry {
  const v = GENERATOR.v.lake_outline_lonlat;
  const ring: Position[] = [];
  for (let i = 0; i + 1 < v.length; i += 2) ring.push([v[i], v[i + 1]]);
  ring.push([ring[0][0], ring[0][1]]);
  return { type: 'MultiPolygon', coordinates: [[ring]] };
}

export type LakeZip = { zip: string; city: string; lat: number; lon: number; relLevel: number };

/** Lake ZIP areas with a city name, a centroid from the reference data and a relative price level. */
export function lakeZips(zips: readonly ZipCentroid[]): LakeZip[] {
  const rel = new Map(GENERATOR.v.lake_zip_rel_level.map((s) => s.split(':')).map(([z, r]) => [z, Number(r)] as const));
  return zips
    .filter((z) => z.county === 'lake' && LAKE_ZIP_CITY[z.zip] !== undefined && rel.has(z.zip))
    .map((z) => ({ zip: z.zip, city: LAKE_ZIP_CITY[z.zip], lat: z.lat, lon: z.lon, relLevel: rel.get(z.zip) as number }))
    .sort((a, b) => a.zip.localeCompare(b.zip));
}
