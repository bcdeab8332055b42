// Build-time only: yearly sale-price levels (county and per 2-digit PIN area, condo vs non-condo) and the yearly
// median assessor-estimate / sale-price ratio, from the 346,164 real Cook sales in cmfproperty/example_data.csv.
import { REFERENCE_DERIVATION } from '../../registry/groups/reference-derivation.js';
import { parseCsv } from '../csv.js';
import { meanSd, quantileType7Sorted } from '../stats.js';
import type { PriceGroup, PriceLevels, PriceStats } from '../types.js';

const R = REFERENCE_DERIVATION.v;
const round = (x: number, d: number) => Number(x.toFixed(d));

type Sale = { area: string; year: number; priceUsd: number; condo: boolean; ratio: number | null };

/** A PIN whose last four (unit) digits are not 0000 is a condominium unit (class 299). */
export function isCondoPin(pin: string): boolean {
  return pin.slice(10, 14) !== '0000';
}

export function parseSales(csvText: string): Sale[] {
  return parseCsv(csvText).map((r, i) => {
    const pin = r.PIN, year = Number(r.SALE_YEAR), priceUsd = Number(r.SALE_PRICE);
    if (!/^\d{14}$/.test(pin) || !Number.isInteger(year) || !(priceUsd > 0)) throw new Error(`sales row ${i + 2}: bad PIN, year or price`);
    const av = r.ASSESSED_VALUE === '' || r.ASSESSED_VALUE === 'NA' ? NaN : Number(r.ASSESSED_VALUE);
    return { area: pin.slice(0, 2), year, priceUsd, condo: isCondoPin(pin), ratio: Number.isFinite(av) ? av / priceUsd : null };
  });
}

/** Summary of sale prices: type-7 quantiles (rounded to cents), mean and sample sd of ln(price). */
export function priceStats(prices: number[]): PriceStats {
  const s = Float64Array.from(prices).sort();
  const logs = Array.from(s, Math.log);
  const { mean, sd } = meanSd(logs);
  const q = (p: number) => round(quantileType7Sorted(s, p), R.money_decimals);
  return { n: s.length, median: q(0.5), p10: q(0.1), p25: q(0.25), p75: q(0.75), p90: q(0.9), mean_log: round(mean, R.stat_decimals), sd_log: round(sd, R.stat_decimals) };
}

/** Drops groups that fell under the size floor (undefined), so their keys are absent from the file. */
function compact(g: Record<string, PriceStats | undefined>): PriceGroup {
  return Object.fromEntries(Object.entries(g).filter(([, v]) => v !== undefined)) as PriceGroup;
}

function group(sales: Sale[], key: (s: Sale) => string): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const s of sales) {
    const k = key(s);
    const arr = m.get(k);
    if (arr) arr.push(s.priceUsd); else m.set(k, [s.priceUsd]);
  }
  return m;
}

const SOURCE_NOTE = [
  'cmfproperty example_data.csv (erhla/cmfproperty, MIT; Cook County arm\'s-length sales 2015-2019, modified by the package authors from datacatalog.cookcountyil.gov).',
  'Condo = PIN unit digits (last 4) not 0000; noncondo = all other PINs (mixed classes: single-family, 2-6 flats, etc.).',
  'Quantiles: Hyndman-Fan type 7 (R default: linear interpolation at h = (n-1)p on sorted prices), rounded to cents.',
  'mean_log / sd_log: mean and sample sd (n-1) of natural-log sale price.',
  'Groups with fewer than MIN_N sales are omitted (key absent).',
  'assessment_ratio: median of ASSESSED_VALUE / SALE_PRICE per sale year (type 7), rows without ASSESSED_VALUE skipped; ASSESSED_VALUE is the assessor market-value estimate per the package docs.',
].join(' ');

/** Builds price_levels.json content from the sales CSV text. minGroupN defaults to the registry floor (30). */
export function derivePriceLevels(csvText: string, minGroupN: number = R.min_group_n): PriceLevels {
  const sales = parseSales(csvText);
  const years = [...new Set(sales.map((s) => s.year))].sort((a, b) => a - b);
  const stat = (prices: number[] | undefined) => (prices && prices.length >= minGroupN ? priceStats(prices) : undefined);
  const byYear = group(sales, (s) => `${s.year}|all`);
  const byYearType = group(sales, (s) => `${s.year}|${s.condo ? 'condo' : 'noncondo'}`);
  const county: PriceLevels['county'] = {};
  for (const y of years) {
    county[String(y)] = compact({ all: stat(byYear.get(`${y}|all`)), noncondo: stat(byYearType.get(`${y}|noncondo`)), condo: stat(byYearType.get(`${y}|condo`)) });
  }
  const areas = [...new Set(sales.map((s) => s.area))].sort();
  const byAreaYear = group(sales.filter((s) => !s.condo), (s) => `${s.area}|${s.year}`);
  const byAreaType = group(sales, (s) => `${s.area}|${s.condo ? 'condo' : 'noncondo'}`);
  const by_area: PriceLevels['by_area'] = {};
  for (const a of areas) {
    const entry: Record<string, PriceGroup> = {};
    for (const y of years) {
      const nc = stat(byAreaYear.get(`${a}|${y}`));
      if (nc) entry[String(y)] = { noncondo: nc };
    }
    entry.all_years = compact({ noncondo: stat(byAreaType.get(`${a}|noncondo`)), condo: stat(byAreaType.get(`${a}|condo`)) });
    by_area[a] = entry;
  }
  const assessment_ratio: PriceLevels['assessment_ratio'] = {};
  for (const y of years) {
    const r = Float64Array.from(sales.filter((s) => s.year === y && s.ratio !== null).map((s) => s.ratio as number)).sort();
    // type 7 at p = 0.5 (the file's quantile_type), not stats.median's midpoint form: the committed file stays byte-identical
    if (r.length >= minGroupN) assessment_ratio[String(y)] = { n: r.length, median: round(quantileType7Sorted(r, 0.5), R.stat_decimals) };
  }
  return { source: SOURCE_NOTE.replace('MIN_N', String(minGroupN)), quantile_type: 'hyndman-fan-7', min_group_n: minGroupN, n_sales: sales.length, years, county, by_area, assessment_ratio };
}
