// Monthly price index per county for the kernel, estimated from a snapshot's arms-length sales strictly before a
// cutoff day (no leakage: nothing on or after the cutoff is read).
//
// Estimator (per county):
//   y_i   = ln(price_i / sqft_i) over arms-length sales with known sqft and sale_day < cutoff
//   r_i   = y_i − mean_{tract(i)}(y)                    (location removed: tract means)
//   e_i   = r_i − mean_{condition(i)}(r)                (condition mix removed)
//   m_t   = median of e_i over sales in month t        (robust to outliers)
//   months with fewer than time_index_min_month_sales sales carry the previous month's value (chained)
//   s_t   = centered moving average of m over time_index_smooth_months (one-sided at the ends)
//   level_t = exp(s_t − s_last)                          (last month = 1.0)
import { COUNTY_CODE } from '../../store/columns.js';
import type { TimeIndexSeries } from '../../kernel/types.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { armsLengthMask, type SalesColumns } from '../../store/sales-columns.js';
import { isoOfDay, monthOfDay } from '../../store/days.js';
import { median } from '../../reference/stats.js';

export type TimeIndexBuild = {
  series: TimeIndexSeries[];
  cutoffDay: number;
  /** Human note carried on arv.time_index_note. */
  note: string;
  /** Per county: sales used and months estimated. */
  counts: Record<string, { sales: number; months: number }>;
};

type Usable = { rows: number[]; y: Float64Array };

function usableRows(c: SalesColumns, arms: Uint8Array, county: number, cutoffDay: number): Usable {
  const rows: number[] = [];
  for (let i = 0; i < c.length; i++) {
    if (c.county[i] !== county || arms[i] !== 1 || !(c.saleDay[i] < cutoffDay)) continue;
    if (!(c.sqft[i] > 0) || !(c.priceUsd[i] > 0)) continue;
    rows.push(i);
  }
  const y = Float64Array.from(rows, (i) => Math.log(c.priceUsd[i] / c.sqft[i]));
  return { rows, y };
}

/** e_i = y − tract mean − condition mean of the tract residual. */
function residuals(c: SalesColumns, u: Usable): Float64Array {
  const mean = (key: (i: number) => number, v: Float64Array): Map<number, number> => {
    const acc = new Map<number, [number, number]>();
    u.rows.forEach((row, k) => {
      const a = acc.get(key(row)) ?? [0, 0];
      a[0] += v[k];
      a[1] += 1;
      acc.set(key(row), a);
    });
    return new Map([...acc].map(([g, [s, n]]) => [g, s / n]));
  };
  const tractMean = mean((i) => c.tractIdx[i], u.y);
  const r = Float64Array.from(u.rows, (row, k) => u.y[k] - (tractMean.get(c.tractIdx[row]) as number));
  const condMean = mean((i) => c.condition[i], r);
  return Float64Array.from(u.rows, (row, k) => r[k] - (condMean.get(c.condition[row]) as number));
}

function smooth(values: number[], window: number): number[] {
  const half = Math.floor(window / 2);
  return values.map((_, t) => {
    const lo = Math.max(0, t - half);
    const hi = Math.min(values.length - 1, t + half);
    let s = 0;
    for (let k = lo; k <= hi; k++) s += values[k];
    return s / (hi - lo + 1);
  });
}

/** One county's series, or null when it has no usable month. */
export function countySeries(c: SalesColumns, arms: Uint8Array, county: number, cutoffDay: number): { series: TimeIndexSeries; sales: number } | null {
  const u = usableRows(c, arms, county, cutoffDay);
  if (u.rows.length === 0) return null;
  const e = residuals(c, u);
  const byMonth = new Map<number, number[]>();
  u.rows.forEach((row, k) => {
    const m = monthOfDay(c.saleDay[row]);
    const list = byMonth.get(m);
    if (list) list.push(e[k]);
    else byMonth.set(m, [e[k]]);
  });
  const first = Math.min(...byMonth.keys());
  const last = monthOfDay(cutoffDay - 1);
  const minN = TIER1.v.time_index_min_month_sales;
  const raw: number[] = [];
  let prev: number | null = null;
  for (let m = first; m <= last; m++) {
    const list = byMonth.get(m);
    const v: number | null = list && list.length >= minN ? median(list) : prev;
    raw.push(v ?? median(e));
    prev = raw[raw.length - 1];
  }
  const s = smooth(raw, TIER1.v.time_index_smooth_months);
  const base = s[s.length - 1];
  const months = Array.from({ length: s.length }, (_, k) => first + k);
  return { series: { county, months, levels: s.map((v) => Math.exp(v - base)) }, sales: u.rows.length };
}

/** The kernel's time index as of `cutoffDay` (sales with sale_day < cutoffDay only), Cook and Lake. */
export function buildTimeIndex(c: SalesColumns, cutoffDay: number, arms: Uint8Array = armsLengthMask(c)): TimeIndexBuild {
  const series: TimeIndexSeries[] = [];
  const counts: TimeIndexBuild['counts'] = {};
  for (const [name, code] of [['cook', COUNTY_CODE.cook], ['lake', COUNTY_CODE.lake]] as const) {
    const one = countySeries(c, arms, code, cutoffDay);
    counts[name] = { sales: one?.sales ?? 0, months: one?.series.months.length ?? 0 };
    if (one) series.push(one.series);
  }
  const note =
    `Comps carried to the valuation date by a monthly county index (median ln $/sqft residualized on tract and condition, ` +
    `${TIER1.v.time_index_smooth_months}-month smoothed) from arms-length sales before ${isoOfDay(cutoffDay)}; ` +
    'factor capped at 8%/yr compounded and clamped to [0.75, 1.30].';
  return { series, cutoffDay, note, counts };
}

/** Level of `series` at month `m` (last entry ≤ m; flat before the first), as the kernel reads it. */
export function levelAt(series: TimeIndexSeries, m: number): number {
  const months = series.months;
  let k = -1;
  for (let i = 0; i < months.length && months[i] <= m; i++) k = i;
  return series.levels[Math.max(0, k)];
}

/** Longest month span tabulated (a series spans decades at most; anything wider keeps the scan). */
const MAX_TABLE_MONTHS = 12 * 1000;

/**
 * levelAt of a series as a lookup: every month of the series' span tabulated once (by levelAt itself, so the same
 * level). Beyond the span levelAt is constant (every month at or below a month ≥ the last: the last level; none below
 * one < the first: the first), so those read one value; anything else (a fractional month, NaN) asks levelAt. The
 * area context reads two levels per pool sale and a valuation two for the subject's earlier sale, and levelAt scans
 * the whole series.
 */
function buildLevelTable(s: TimeIndexSeries): (m: number) => number {
  let lo = Infinity, hi = -Infinity;
  for (const m of s.months) {
    lo = Math.min(lo, m);
    hi = Math.max(hi, m);
  }
  if (!(hi - lo < MAX_TABLE_MONTHS) || !Number.isInteger(lo) || !Number.isInteger(hi)) return (m) => levelAt(s, m);
  const table = new Float64Array(hi - lo + 1);
  for (let m = lo; m <= hi; m++) table[m - lo] = levelAt(s, m);
  const top = levelAt(s, hi), bottom = levelAt(s, lo - 1);
  return (m) => (m >= hi ? top : m < lo ? bottom : Number.isInteger(m) ? table[m - lo] : levelAt(s, m));
}

const LEVEL_TABLES = new WeakMap<TimeIndexSeries, (m: number) => number>();

/** buildLevelTable of a series, built once per series object (a context's series live as long as it). */
export function levelLookup(s: TimeIndexSeries): (m: number) => number {
  let f = LEVEL_TABLES.get(s);
  if (f === undefined) LEVEL_TABLES.set(s, (f = buildLevelTable(s)));
  return f;
}
