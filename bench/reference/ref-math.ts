// Plain-TypeScript reference of the kernel's numeric pieces (oracle for parity tests, baseline in benchmarks):
// calendar months, haversine, time-index factor, order statistics. Same definitions and operation order as
// crates/avm-kernel/src/{dates,geo,timeindex,stats}.rs.
import type { KernelParams } from '../../src/kernel/params.js';
import type { TimeIndexSeries } from '../../src/kernel/types.js';

export const EARTH_RADIUS_MI = 3958.8;
export const DEG_TO_RAD = Math.PI / 180;
export const BOX_SLACK = 1e-9;
export const DAYS_PER_YEAR = 365.2425;

/** year * 12 + (month - 1) of the civil date of `day` (days since 1970-01-01), Hinnant's civil_from_days. */
export function monthNumber(day: number): number {
  const z = day + 719468;
  const era = Math.trunc((z >= 0 ? z : z - 146096) / 146097);
  const doe = z - era * 146097;
  const yoe = Math.trunc((doe - Math.trunc(doe / 1460) + Math.trunc(doe / 36524) - Math.trunc(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.trunc(yoe / 4) - Math.trunc(yoe / 100));
  const mp = Math.trunc((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return year * 12 + (month - 1);
}

export function havTerm(lat1: number, cos1: number, lon1: number, lat2: number, cos2: number, lon2: number): number {
  const sLat = Math.sin((lat2 - lat1) * 0.5);
  const sLon = Math.sin((lon2 - lon1) * 0.5);
  return sLat * sLat + cos1 * cos2 * sLon * sLon;
}

export const havToMi = (h: number): number => 2 * EARTH_RADIUS_MI * Math.asin(Math.sqrt(Math.min(h, 1)));

export function havOfMi(radiusMi: number): number {
  const s = Math.sin((radiusMi / EARTH_RADIUS_MI) * 0.5);
  return s * s;
}

export function lonHalfWidth(radiusMi: number, lat: number): number {
  const ang = radiusMi / EARTH_RADIUS_MI;
  const far = Math.abs(lat) + ang;
  const denom = Math.cos(lat) * Math.cos(far);
  if (far >= Math.PI / 2 || denom <= 0) return Math.PI;
  const q = havOfMi(radiusMi) / denom;
  return q >= 1 ? Math.PI : 2 * Math.asin(Math.sqrt(q));
}

type Series = { months: ArrayLike<number>; levels: ArrayLike<number> };

function level(s: Series, month: number): number {
  // k = number of entries with month <= m (binary search); the entry before it is the last one <= m.
  let [lo, hi] = [0, s.months.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.months[mid] <= month) lo = mid + 1;
    else hi = mid;
  }
  return s.levels[lo === 0 ? 0 : lo - 1];
}

export function capAndClamp(p: KernelParams, raw: number, years: number): number {
  return capAndClampLn(p, raw, Math.log(raw), years);
}

export function capAndClampLn(p: KernelParams, raw: number, lnF: number, years: number): number {
  const maxLn = Math.max(years, 0) * Math.log(1 + p.timeIndexMaxAnnual);
  const capped = lnF > maxLn ? Math.exp(maxLn) : lnF < -maxLn ? Math.exp(-maxLn) : raw;
  return Math.min(Math.max(capped, p.timeIndexClamp[0]), p.timeIndexClamp[1]);
}

/** Factor from the as-of and sale-month levels and their logs; 1 without a series (NaN levels). */
export function factorFromLevels(p: KernelParams, now: number, lnNow: number, then: number, lnThen: number, saleDay: number, asOf: number): number {
  if (Number.isNaN(now) || Number.isNaN(then)) return 1;
  return capAndClampLn(p, now / then, lnNow - lnThen, (asOf - saleDay) / DAYS_PER_YEAR);
}

export type LevelOf = (county: number, day: number) => number;

/** Level of a county in the month of `day` (NaN without a series). */
export function makeLevelOf(series: readonly TimeIndexSeries[]): LevelOf {
  const byCounty = new Map<number, Series>(series.map((s) => [s.county, s]));
  return (county, day) => {
    const s = byCounty.get(county);
    return s ? level(s, monthNumber(day)) : NaN;
  };
}

const asc = (a: number, b: number): number => a - b;

export function medianSorted(x: ArrayLike<number>): number {
  const n = x.length;
  if (n === 0) return NaN;
  return n % 2 === 1 ? x[(n - 1) / 2] : (x[n / 2 - 1] + x[n / 2]) * 0.5;
}

export const median = (x: number[]): number => medianSorted(x.sort(asc));

/** Hyndman–Fan type 7 quantile of a sorted array. */
export function quantile7Sorted(x: ArrayLike<number>, p: number): number {
  if (x.length === 0) return NaN;
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  const hi = lo + 1 < x.length ? lo + 1 : lo;
  return x[lo] + (h - lo) * (x[hi] - x[lo]);
}

/** Median and unscaled MAD. */
export function medianMad(x: number[]): [number, number] {
  const med = median(x);
  return [med, median(x.map((v) => Math.abs(v - med)))];
}

export function summarize(prices: number[], madScale: number): { n: number; median: number; q25: number; q75: number; fsd: number } {
  prices.sort(asc);
  const [, mad] = medianMad(prices.map((p) => Math.log(p)));
  return { n: prices.length, median: medianSorted(prices), q25: quantile7Sorted(prices, 0.25), q75: quantile7Sorted(prices, 0.75), fsd: madScale * mad };
}
