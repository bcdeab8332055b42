// Build-time only: the small CSV reference tables (ZIP centroids, Cook municipal tax rates, county-level rates,
// equalization factors, levels of assessment, residential class codes, deed types, neighborhood groups) from the raw
// public files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_DERIVATION } from '../../registry/groups/reference-derivation.js';
import { fmtNum, formatCsv, parseCsv } from '../csv.js';

const R = REFERENCE_DERIVATION.v;
const readCsv = (rawDir: string, ...p: string[]) => parseCsv(readFileSync(join(rawDir, ...p), 'utf8'));

/** Source numbers; 'NA', 'NaN', '' and non-finite values become null. */
export function num(v: string | undefined): number | null {
  if (v === undefined || v === '' || v === 'NA' || v === 'NaN' || v === 'Inf' || v === '-Inf') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}
function req(v: string | undefined, label: string): number {
  const n = num(v);
  if (n === null) throw new Error(`missing number for ${label}`);
  return n;
}

const COUNTY_BY_FIPS: Record<string, 'cook' | 'lake'> = { '17031': 'cook', '17097': 'lake' };

export function deriveZipCentroids(rawDir: string): string {
  const rows = readCsv(rawDir, 'zip-centroids', 'cook_lake_zcta_centroids.csv').map((r) => {
    const county = COUNTY_BY_FIPS[r.county_fips];
    if (!county || !/^\d{5}$/.test(r.zcta5)) throw new Error(`bad zcta row ${JSON.stringify(r)}`);
    return [r.zcta5, county, fmtNum(req(r.latitude, 'latitude'), 6), fmtNum(req(r.longitude, 'longitude'), 6)];
  });
  rows.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  return formatCsv(['zip', 'county', 'lat', 'lon'], rows);
}

/**
 * One row per municipality-year. `muni_effective_rate` is published in PERCENT (levy / FMV x 100, checked to
 * within 0.0005 on every row); it is divided by 100 here so every rate in the file is a fraction.
 * Rows whose clean_name is 'NA' (parcels outside any municipality in the source) are dropped.
 */
export function deriveMuniTaxRates(rawDir: string): string {
  const rows = readCsv(rawDir, 'uic-gfrc-proptax', 'ptaxsim_muni_level_2006to2023.csv')
    .filter((r) => r.clean_name !== 'NA' && r.clean_name !== '')
    .map((r) => {
      const eff = num(r.muni_effective_rate);
      return [
        r.clean_name, r.year,
        fmtNum(num(r.muni_current_rate_avg), R.rate_decimals),
        fmtNum(eff === null ? null : eff / 100, R.rate_decimals),
        fmtNum(num(r.muni_min_TC_rate), R.rate_decimals),
        fmtNum(num(r.muni_max_TC_rate), R.rate_decimals),
        fmtNum(num(r.median_fmv_all), R.money_decimals),
        fmtNum(num(r.muni_avg_C2_bill_noexe), R.money_decimals),
        fmtNum(num(r.muni_avg_C2_bill_withexe), R.money_decimals),
      ];
    });
  rows.sort((a, b) => a[0].localeCompare(b[0]) || Number(a[1]) - Number(b[1]));
  return formatCsv(['municipality', 'year', 'current_rate_avg', 'effective_rate', 'min_tc_rate', 'max_tc_rate', 'median_fmv', 'avg_c2_bill_noexe', 'avg_c2_bill_withexe'], rows);
}

/**
 * County-wide equivalents the source has: average current rate, average class-2 bills, and an effective rate
 * computed as cty_final_tax_to_dist / cty_fmv (the definition the muni file's effective rate follows).
 * The source has no county min/max tax-code rate and no county median FMV, so those columns are absent.
 */
export function deriveCookCountyLevel(rawDir: string): string {
  const rows = readCsv(rawDir, 'uic-gfrc-proptax', 'ptaxsim_cook_level_2006to2023.csv').map((r) => {
    const fmv = num(r.cty_fmv), tax = num(r.cty_final_tax_to_dist);
    return [
      r.year,
      fmtNum(num(r.cty_current_rate_avg), R.rate_decimals),
      fmtNum(fmv && tax !== null ? tax / fmv : null, R.rate_decimals),
      fmtNum(num(r.cty_avg_C2_bill_noexe), R.money_decimals),
      fmtNum(num(r.cty_avg_C2_bill_withexe), R.money_decimals),
    ];
  });
  rows.sort((a, b) => Number(a[0]) - Number(b[0]));
  return formatCsv(['year', 'current_rate_avg', 'effective_rate', 'avg_c2_bill_noexe', 'avg_c2_bill_withexe'], rows);
}

export type EqCrossCheck = { yearsCompared: number; disagreements: Array<{ year: number; gfrcFinal: number; ccao: number }> };

/** 1980-2023 from the UIC GFRC file; the CCAO 1980-2019 file is compared against eq_factor_final. */
export function deriveEqualizationFactors(rawDir: string): { text: string; crossCheck: EqCrossCheck } {
  const gfrc = readCsv(rawDir, 'uic-gfrc-proptax', 'eq_factor.csv');
  const ccao = new Map(readCsv(rawDir, 'ccao-ccao', 'equalization_factors.csv').map((r) => [Number(r.year), req(r.equalization_factor, 'ccao eq')]));
  const crossCheck: EqCrossCheck = { yearsCompared: 0, disagreements: [] };
  const rows = gfrc.map((r) => {
    const year = Number(r.year), fin = req(r.eq_factor_final, `eq final ${year}`);
    const other = ccao.get(year);
    if (other !== undefined) {
      crossCheck.yearsCompared++;
      if (Math.abs(other - fin) > 1e-9) crossCheck.disagreements.push({ year, gfrcFinal: fin, ccao: other });
    }
    return [String(year), fmtNum(req(r.eq_factor_tentative, `eq tentative ${year}`), 4), fmtNum(fin, 4)];
  });
  rows.sort((a, b) => Number(a[0]) - Number(b[0]));
  return { text: formatCsv(['year', 'eq_factor_tentative', 'eq_factor_final'], rows), crossCheck };
}

/** Residential classes (2xx, including 299) and the class-0 default rows, every year the source has. */
export function deriveLevelsOfAssessment(rawDir: string): string {
  const rows = readCsv(rawDir, 'ccao-data-architecture', 'ccao.loa.csv')
    .filter((r) => /^2\d\d$/.test(r.class_code) || r.class_code === '0')
    .map((r) => [r.year, r.class_code, fmtNum(req(r.loa, `loa ${r.year}/${r.class_code}`), 6)]);
  rows.sort((a, b) => Number(a[0]) - Number(b[0]) || Number(a[1]) - Number(b[1]));
  return formatCsv(['year', 'class_code', 'loa'], rows);
}

const WORD_NUM: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const toN = (s: string) => WORD_NUM[s.toLowerCase()] ?? Number(s);

/**
 * Unit counts stated in a class description: "2 to 6 units", "Two to six ... apartments", "six or fewer rentable
 * units". Returns nulls when the description states none (e.g. single-family classes).
 */
export function unitsFromDesc(desc: string): { min: number | null; max: number | null } {
  const W = '(\\d+|one|two|three|four|five|six|seven|eight|nine|ten)';
  const range = new RegExp(`\\b${W} to ${W}\\b[^,.]*?\\b(units|apartments)\\b`, 'i').exec(desc);
  if (range) return { min: toN(range[1]), max: toN(range[2]) };
  const atMost = new RegExp(`\\b${W} or fewer\\b[^,.]*?\\bunits\\b`, 'i').exec(desc);
  if (atMost) return { min: null, max: toN(atMost[1]) };
  return { min: null, max: null };
}

/** Major class 2 from the CCAO class dictionary. 'Infinity' bounds in the source become empty (unbounded). */
export function deriveClassCodes(rawDir: string): string {
  const bound = (v: string) => (v === 'Infinity' || v === '' ? '' : String(req(v, 'class bound')));
  const rows = readCsv(rawDir, 'ccao-data-architecture', 'ccao.class_dict.csv')
    .filter((r) => r.major_class_code === '2')
    .map((r) => {
      const u = unitsFromDesc(r.class_desc);
      return [r.class_code, r.major_class_type, r.modeling_group, r.class_desc, bound(r.min_age), bound(r.max_age), bound(r.min_size), bound(r.max_size), u.min === null ? '' : String(u.min), u.max === null ? '' : String(u.max)];
    });
  rows.sort((a, b) => a[0].localeCompare(b[0]));
  return formatCsv(['class_code', 'major_class_type', 'modeling_group', 'class_desc', 'min_age', 'max_age', 'min_size', 'max_size', 'units_min', 'units_max'], rows);
}

/** DOMAIN.md arms-length screen: warranty and trustee deeds are normal sales; every other type is not. */
const ARMS_LENGTH_DEEDS = new Set(['Warranty', 'Trustee']);

export function deriveDeedTypes(rawDir: string): string {
  const rows = readCsv(rawDir, 'ccao-data-architecture', 'sale.deed_type.csv').map((r) => [String(Number(r.deed_num)), r.deed_name, ARMS_LENGTH_DEEDS.has(r.deed_name) ? 'true' : 'false']);
  rows.sort((a, b) => Number(a[0]) - Number(b[0]));
  return formatCsv(['code', 'name', 'arms_length'], rows);
}

export type NeighborhoodGroupCheck = { rows: number; groups: number; notInPolygons: string[] };

/**
 * CCAO neighborhood groups: one row per town_nbhd with its group name exactly as the source spells it (`berywn`,
 * `oak_park`, `Lake View 1`). The source's version and updated_at columns are dropped. `knownNbhds` (the polygon
 * codes) is the cross-check: a group row naming a neighborhood without a polygon is reported, not dropped.
 */
export function deriveNeighborhoodGroups(rawDir: string, knownNbhds: ReadonlySet<string>): { text: string; check: NeighborhoodGroupCheck } {
  const seen = new Set<string>();
  const rows = readCsv(rawDir, 'ccao-data-architecture', 'location.neighborhood_group.csv').map((r) => {
    if (!/^\d{5}$/.test(r.nbhd) || r.group_name.trim() === '' || seen.has(r.nbhd)) throw new Error(`bad neighborhood group row ${JSON.stringify(r)}`);
    seen.add(r.nbhd);
    return [r.nbhd, r.group_name];
  });
  rows.sort((a, b) => a[0].localeCompare(b[0]));
  const check = { rows: rows.length, groups: new Set(rows.map((r) => r[1])).size, notInPolygons: rows.map((r) => r[0]).filter((n) => !knownNbhds.has(n)) };
  return { text: formatCsv(['town_nbhd', 'group_name'], rows), check };
}
