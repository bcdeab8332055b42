// The small generated files: tracts.geojson (one feature per tract GEOID with GEOID, COUNTYFP, NAMELSAD, muni, vintage) and
// the HUD SAFMR table (one row per Cook and Lake ZIP, 0-4 bedrooms, synthetic gross rents).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HUD_SAFMR, TRACTS_GEOJSON } from '../layouts.js';
import { CsvOut, headerFor } from './csv-out.js';
import type { RentModel } from './rents.js';
import type { GenTract } from './tracts.js';

/** HUD's metro area code and name for Chicago-Joliet-Naperville (Cook and Lake share it). */
const HUD_AREA_CODE = 'METRO16980M16980';
const HUD_AREA_NAME = 'Chicago-Joliet-Naperville, IL HUD Metro FMR Area';

/** One feature per GEOID, in order of first appearance; the pieces of a real Chicago tract merge into one MultiPolygon. */
export function writeTracts(rawDir: string, tracts: readonly GenTract[], vintage: string): void {
  const byGeoid = new Map<string, { t: GenTract; coordinates: GenTract['geometry']['coordinates'] }>();
  for (const t of tracts) {
    const f = byGeoid.get(t.geoid);
    if (f) f.coordinates.push(...t.geometry.coordinates); else byGeoid.set(t.geoid, { t, coordinates: [...t.geometry.coordinates] });
  }
  const doc = {
    type: 'FeatureCollection',
    name: 'synthetic_census_tracts',
    features: [...byGeoid.values()].map(({ t, coordinates }) => ({
      type: 'Feature',
      properties: { GEOID: t.geoid, COUNTYFP: t.county === 'cook' ? '031' : '097', NAMELSAD: t.namelsad, muni: t.muni, vintage },
      geometry: { type: 'MultiPolygon', coordinates },
    })),
  };
  writeFileSync(join(rawDir, TRACTS_GEOJSON.file), JSON.stringify(doc));
}

/** HUD fiscal years start on October 1: an as-of date in October-December belongs to the next fiscal year. */
export function fiscalYearOf(asOfIso: string): number {
  const [y, m] = asOfIso.split('-').map(Number);
  return m >= 10 ? y + 1 : y;
}

export function writeSafmr(rawDir: string, rents: RentModel, asOfIso: string): number {
  const out = new CsvOut(join(rawDir, HUD_SAFMR.file), headerFor(HUD_SAFMR, ['HUD Metro Fair Market Rent Area Name', 'fiscal_year']));
  const fy = fiscalYearOf(asOfIso);
  for (const row of rents.safmr.values()) out.row([row.zip, HUD_AREA_CODE, ...row.usd, HUD_AREA_NAME, fy]);
  out.close();
  return out.rows;
}
