// Cook parcel files: the Parcel Universe (one row per PIN, with lat/lon and tract) and the residential
// characteristics (one row per PIN for the as-of year, plus a row for the year of a flip buy showing the pre-flip
// state), with the assessor's repair and renovation flags at their real rates. Condos are not in the characteristics file, as in the real x54s-btds table. Lake facts ride on its sales.
import { join } from 'node:path';
import { AppError } from '../../errors/app-error.js';
import { CCAO_PARCEL_UNIVERSE, CCAO_RES_CHARS } from '../layouts.js';
import { PT_CONDO, PT_MF, STORIES_ONE } from './buildings.js';
import { CsvOut, headerFor } from './csv-out.js';
import { yearOfDay } from '../../store/days.js';
import type { ParcelTable } from './parcels.js';
import { condAt, type SalesCtx } from './sales.js';
import { COND_DATED, COND_DISTRESSED, COND_RENOVATED } from './surface.js';
import { GENERATOR } from '../../registry/groups/generator.js';
import type { Rng } from './rng.js';
import type { GenTract } from './tracts.js';

const UNIVERSE_COLS = ['pin', 'year', 'class', 'township_code', 'nbhd_code', 'lat', 'lon', 'zip_code', 'pin10', 'triad_name', 'triad_code', 'township_name', 'tax_municipality_name', 'census_tract_geoid'];
const CHARS_COLS = [
  'pin', 'year', 'class', 'township_code', 'char_yrblt', 'char_bldg_sf', 'char_beds', 'char_apts', 'char_repair_cnd', 'char_renovation',
  'card_num', 'char_rooms', 'char_fbath', 'char_type_resd', 'char_use', 'char_age',
];
/** CCAO codes (vars_dict.csv): char_apts 1 Two, 2 Three, 3 Four, 6 None; char_use 1 single-, 2 multi-family. */
const CHAR_APTS_BY_UNITS = [6, 6, 1, 2, 3];
const USE_SF = 1, USE_MF = 2;
/** CCAO codes (vars_dict.csv): char_repair_cnd 2 Average, 3 Below Average; char_renovation 1 Yes, 0 No. */
const REPAIR_AVERAGE = 2, REPAIR_BELOW = 3, RENOVATION_YES = 1, RENOVATION_NO = 0;
const G = GENERATOR.v;

/**
 * Assessor flags at the real rates (generator 3.0.0): char_renovation = 1 on char_renovation_rate of the rows, drawn
 * among renovated buildings only; char_repair_cnd = 3 on char_repair_below_rate of the rows, a distressed building with
 * char_repair_below_given_distressed odds and dated ones for the rest; every other row 2 (average). So the flags say
 * little: most renovated houses carry no flag, as in the real table. The true condition is in truth/ only.
 */
class AssessorFlags {
  private readonly pRenovated: number;
  private readonly pBelow: number[];

  constructor(conds: readonly number[], private readonly rng: Rng) {
    const n = conds.length, count = (k: number) => conds.filter((x) => x === k).length;
    const nDist = count(COND_DISTRESSED), nDated = count(COND_DATED), nReno = count(COND_RENOVATED);
    this.pRenovated = nReno > 0 ? Math.min(1, (G.char_renovation_rate * n) / nReno) : 0;
    const pDist = nDist > 0 ? G.char_repair_below_given_distressed : 0;
    const pDated = nDated > 0 ? Math.min(1, Math.max(0, G.char_repair_below_rate * n - pDist * nDist) / nDated) : 0;
    this.pBelow = [pDist, pDated, 0, 0];
  }

  /** [char_repair_cnd, char_renovation] of one row; one uniform per flag per row, in row order. */
  draw(cond: number): [number, number] {
    const below = this.rng.next() < this.pBelow[cond];
    const renovated = this.rng.next() < (cond === COND_RENOVATED ? this.pRenovated : 0);
    return [below ? REPAIR_BELOW : REPAIR_AVERAGE, renovated ? RENOVATION_YES : RENOVATION_NO];
  }
}

function checkedOut(path: string, expected: string[], actual: string[]): CsvOut {
  if (expected.join(',') !== actual.join(',')) throw new AppError('internal_error', `${path}: column order drifted from the layout`);
  return new CsvOut(path, actual);
}

export function writeUniverse(rawDir: string, p: ParcelTable, tracts: readonly GenTract[], zipOf: readonly string[], asOfYear: number): number {
  const out = checkedOut(join(rawDir, CCAO_PARCEL_UNIVERSE.file), UNIVERSE_COLS, headerFor(CCAO_PARCEL_UNIVERSE, UNIVERSE_COLS.slice(8)));
  for (let i = 0; i < p.n; i++) {
    const t = tracts[p.tract[i]];
    if (t.county !== 'cook') continue;
    out.row([
      p.pin[i], asOfYear, p.cls[i], t.townshipCode, t.townNbhd, p.lat[i].toFixed(6), p.lon[i].toFixed(6), zipOf[p.tract[i]],
      p.pin[i].slice(0, 10), t.triadName, t.triadCode, t.townshipName, t.muni, t.geoid,
    ]);
  }
  out.close();
  return out.rows;
}

function charsRow(p: ParcelTable, i: number, t: GenTract, year: number, [repair, renovation]: [number, number]): Array<string | number> {
  const mf = p.ptype[i] === PT_MF;
  const units = p.units[i];
  return [
    p.pin[i], year, p.cls[i], t.townshipCode, p.yearBuilt[i], p.sqft[i], p.beds[i], mf ? CHAR_APTS_BY_UNITS[units] : CHAR_APTS_BY_UNITS[0],
    repair, renovation, 1, p.beds[i] + (mf ? 2 * units : 2), mf ? units : Math.max(1, Math.round(p.beds[i] / 2)),
    p.stories[i] || STORIES_ONE, mf ? USE_MF : USE_SF, Math.max(year - p.yearBuilt[i], 0),
  ];
}

/** One row per Cook 1-4 unit building for the as-of year; flips add the buy year in its distressed state. */
export function writeCharacteristics(rawDir: string, c: SalesCtx, asOfDay: number, flagRng: Rng): number {
  const p = c.p;
  const asOfYear = yearOfDay(asOfDay);
  const rows: Array<{ i: number; year: number; cond: number }> = [];
  for (let i = 0; i < p.n; i++) {
    if (c.tracts[p.tract[i]].county !== 'cook' || p.ptype[i] === PT_CONDO) continue;
    if (p.flip[i] === 1) {
      const buyYear = yearOfDay(c.flipBuyDay[i]);
      if (buyYear !== asOfYear && buyYear !== yearOfDay(c.flipResaleDay[i])) rows.push({ i, year: buyYear, cond: COND_DISTRESSED });
    }
    rows.push({ i, year: asOfYear, cond: condAt(c, i, asOfDay) });
  }
  const flags = new AssessorFlags(rows.map((r) => r.cond), flagRng);
  const out = checkedOut(join(rawDir, CCAO_RES_CHARS.file), CHARS_COLS, headerFor(CCAO_RES_CHARS, CHARS_COLS.slice(10)));
  for (const r of rows) out.row(charsRow(p, r.i, c.tracts[p.tract[r.i]], r.year, flags.draw(r.cond)));
  out.close();
  return out.rows;
}
