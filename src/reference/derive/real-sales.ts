// Build-time only: the real facts generator 3.0.0 is anchored to and compared with.
// - nbhd_sales.csv: class-2 (residential) sale count and median price per CCAO neighborhood and year, 2012-2022
//   (cw353-sales-map, from the CCAO Parcel Sales open data, price > $10k, all deed types).
// - chicago_tracts.csv: the 805 real City of Chicago census tract GEOIDs, names and internal points (housing-teller);
//   only those columns are read: the income and demographic columns never enter the repo. Cook tracts only (803).
// - area_dispersion.csv: per 2-digit PIN area and year, the spread of real non-condo ln(sale price) around the
//   area-year median (cmfproperty 2015-2019): n, median, IQR, p90-p10, share beyond 2x or 1/2 of the median, and the
//   centered log quantiles at 1..99% (the distribution a KS test compares with).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmtNum, formatCsv, parseCsv } from '../csv.js';
import { quantileType7Sorted } from '../stats.js';
import { parseSales } from './price-levels.js';

const RESIDENTIAL_MAJOR_CLASS = '2'; // CCAO major class 2: residential (classes 202-299)
const MIN_AREA_YEAR_N = 30; //           same floor as price_levels.json groups
const LN2 = Math.log(2);
const COOK_GEOID_PREFIX = '17031';
export const DISPERSION_PERCENTILES = Array.from({ length: 99 }, (_, k) => k + 1);

export function deriveNbhdSales(rawDir: string): string {
  const rows = parseCsv(readFileSync(join(rawDir, 'cw353-sales-map', 'sales_by_class_nbhd_year.csv'), 'utf8'));
  const out = rows
    .filter((r) => r.major_class === RESIDENTIAL_MAJOR_CLASS)
    .map((r) => {
      const nbhd = r.nbhd.padStart(5, '0'), year = Number(r.year), count = Number(r.count), median = Number(r.median);
      if (!/^\d{5}$/.test(nbhd) || !Number.isInteger(year) || !(count > 0) || !(median > 0)) throw new Error(`cw353 row ${nbhd}/${r.year}: bad neighborhood, year, count or median`);
      return [nbhd, year, count, median] as const;
    })
    .sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);
  return formatCsv(['town_nbhd', 'year', 'count', 'median'], out.map(([n, y, c, m]) => [n, y, c, fmtNum(m, 2)]));
}

export function deriveChicagoTracts(rawDir: string): string {
  const rows = parseCsv(readFileSync(join(rawDir, 'housing-teller', 'chicago_ref_table.csv'), 'utf8'));
  const out = rows
    // Two of the city's tracts lie in DuPage County (17043, the west end of O'Hare): the service maps Cook and Lake only.
    .filter((r) => r.Layer === 'Census tract' && r.GEOID.startsWith(COOK_GEOID_PREFIX))
    .map((r) => {
      const lon = Number(r.Longitude), lat = Number(r.Latitude);
      if (!/^17031\d{6}$/.test(r.GEOID) || !Number.isFinite(lon) || !Number.isFinite(lat)) throw new Error(`housing-teller row ${r.GEOID}: bad GEOID or point`);
      return [r.GEOID, r.Name, fmtNum(lon, 6), fmtNum(lat, 6)] as const;
    })
    .sort((a, b) => a[0].localeCompare(b[0]));
  return formatCsv(['geoid', 'name', 'lon', 'lat'], out);
}

export function deriveAreaDispersion(rawDir: string): string {
  const sales = parseSales(readFileSync(join(rawDir, 'cmfproperty', 'example_data.csv'), 'utf8'));
  const groups = new Map<string, number[]>();
  for (const s of sales) {
    if (s.condo) continue;
    const k = `${s.area}|${s.year}`;
    const g = groups.get(k);
    if (g) g.push(Math.log(s.priceUsd)); else groups.set(k, [Math.log(s.priceUsd)]);
  }
  const rows: Array<Array<string | number>> = [];
  for (const k of [...groups.keys()].sort()) {
    const logs = Float64Array.from(groups.get(k) as number[]).sort();
    if (logs.length < MIN_AREA_YEAR_N) continue;
    const [area, year] = k.split('|');
    const med = quantileType7Sorted(logs, 0.5);
    const q = (p: number) => quantileType7Sorted(logs, p) - med;
    let tail = 0;
    for (const x of logs) if (Math.abs(x - med) > LN2) tail++;
    rows.push([
      area, Number(year), logs.length, fmtNum(med, 4), fmtNum(q(0.75) - q(0.25), 4), fmtNum(q(0.9) - q(0.1), 4), fmtNum(tail / logs.length, 4),
      DISPERSION_PERCENTILES.map((p) => fmtNum(q(p / 100), 4)).join(' '),
    ]);
  }
  return formatCsv(['pin_area', 'year', 'n', 'median_log', 'iqr_log', 'p90_p10_log', 'tail_share', 'centered_log_q01_q99'], rows);
}
