// Backtest and IAAO ratio-study metrics: MdAPE, PPE10, PPE20, interval coverage/width, COD, PRD, PRB, grouped studies.
// Definitions follow DOMAIN.md and ccao-data/assesspy (metrics.py); each function states its exact formula. Median and
// type-7 quantiles are reference/stats.ts.
import { AppError } from '../../errors/app-error.js';
import { RATIO_STUDY, VALUATION_DISPLAY } from '../../registry/groups/valuation.js';
import { median, quantileType7 } from '../../reference/stats.js';
import { BACKTEST_REPORT } from '../../registry/groups/accuracy-report.js';

function bad(message: string): AppError {
  return new AppError('validation_failed', message);
}

/** Checks paired positive finite vectors of equal, non-zero length. */
export function checkPaired(estimates: readonly number[], prices: readonly number[]): void {
  if (estimates.length !== prices.length) throw bad(`estimates (${estimates.length}) and prices (${prices.length}) differ in length`);
  if (estimates.length === 0) throw bad('a metric needs at least one sale');
  for (let i = 0; i < estimates.length; i++) {
    if (!(Number.isFinite(estimates[i]) && estimates[i] > 0)) throw bad(`estimate ${i} is not a positive finite number`);
    if (!(Number.isFinite(prices[i]) && prices[i] > 0)) throw bad(`price ${i} is not a positive finite number`);
  }
}

/** Assessment ratios estimate / price. */
export function salesRatios(estimates: readonly number[], prices: readonly number[]): number[] {
  checkPaired(estimates, prices);
  return estimates.map((e, i) => e / prices[i]);
}

/** MdAPE = median(|estimate − price| / price), a fraction (0.07 = 7%). */
export function mdape(estimates: readonly number[], prices: readonly number[]): number {
  return median(salesRatios(estimates, prices).map((r) => Math.abs(r - 1)));
}

/** PPEk = share of sales with |estimate/price − 1| ≤ band (default 0.10), a fraction. */
export function ppe(estimates: readonly number[], prices: readonly number[], band: number = VALUATION_DISPLAY.v.ppe_band_frac): number {
  const r = salesRatios(estimates, prices);
  return r.filter((x) => Math.abs(x - 1) <= band + 1e-12).length / r.length;
}

/** PPE20: share of sales within ±20% (backtest_report.ppe20_band_frac), the wider band beside PPE10. */
export function ppe20(estimates: readonly number[], prices: readonly number[]): number {
  return ppe(estimates, prices, BACKTEST_REPORT.v.ppe20_band_frac);
}

/** confidence_p10 = P(|error| ≤ 10%) × 100 on a calibration segment. */
export function confidenceP10(estimates: readonly number[], prices: readonly number[]): number {
  return 100 * ppe(estimates, prices, VALUATION_DISPLAY.v.ppe_band_frac);
}

/** Empirical coverage: share of prices inside [low, high] (inclusive). */
export function intervalCoverage(lows: readonly number[], highs: readonly number[], prices: readonly number[]): number {
  if (lows.length !== prices.length || highs.length !== prices.length || prices.length === 0) throw bad('coverage needs equal, non-empty vectors');
  let inside = 0;
  for (let i = 0; i < prices.length; i++) if (lows[i] <= prices[i] && prices[i] <= highs[i]) inside++;
  return inside / prices.length;
}

/** Mean relative width: mean((high − low) / estimate), a fraction of the estimate. */
export function meanRelativeWidth(lows: readonly number[], highs: readonly number[], estimates: readonly number[]): number {
  if (lows.length !== estimates.length || highs.length !== estimates.length || estimates.length === 0) throw bad('width needs equal, non-empty vectors');
  let sum = 0;
  for (let i = 0; i < estimates.length; i++) sum += (highs[i] - lows[i]) / estimates[i];
  return sum / estimates.length;
}

/** COD = 100 × mean(|ratio − median ratio|) / median ratio (untrimmed; see ratioStudy for IAAO trimming). */
export function cod(estimates: readonly number[], prices: readonly number[]): number {
  const r = salesRatios(estimates, prices);
  const med = median(r);
  let dev = 0;
  for (const x of r) dev += Math.abs(x - med);
  return (100 * dev) / r.length / med;
}

/** PRD = mean(ratio) / (Σ estimate / Σ price), i.e. mean ratio over the price-weighted mean ratio. */
export function prd(estimates: readonly number[], prices: readonly number[]): number {
  const r = salesRatios(estimates, prices);
  const meanRatio = r.reduce((a, b) => a + b, 0) / r.length;
  const weighted = estimates.reduce((a, b) => a + b, 0) / prices.reduce((a, b) => a + b, 0);
  return meanRatio / weighted;
}

/**
 * PRB (IAAO; assesspy/assessr convention): OLS slope, with intercept, of y = (ratio − med)/med on
 * x = log2(((estimate / med) + price) / 2), the value proxy averaging the median-deflated estimate and the price.
 * Null when x has no variance (fewer than 2 distinct proxies).
 */
export function prb(estimates: readonly number[], prices: readonly number[]): number | null {
  const r = salesRatios(estimates, prices);
  const med = median(r);
  const xs = estimates.map((e, i) => Math.log2((e / med + prices[i]) / 2));
  const ys = r.map((x) => (x - med) / med);
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  return sxx > 0 ? sxy / sxx : null;
}

/**
 * IAAO outlier trim: keep ratio r when Q1 − k·IQR ≤ r ≤ Q3 + k·IQR (k = iqr_trim_mult = 3; quartiles type 7,
 * as assesspy's is_outlier(method='iqr')). Returns a keep-mask aligned with the input.
 */
export function iqrKeepMask(ratios: readonly number[], k = RATIO_STUDY.v.iqr_trim_mult): boolean[] {
  const q1 = quantileType7(ratios, 0.25);
  const q3 = quantileType7(ratios, 0.75);
  const iqr = q3 - q1;
  return ratios.map((r) => r >= q1 - k * iqr && r <= q3 + k * iqr);
}

export type RatioStudy = {
  /** Sales given, and sales left after the 3 × IQR trim (the metrics below use the trimmed set). */
  n: number;
  nTrimmed: number;
  medianRatio: number;
  cod: number;
  prd: number;
  prb: number | null;
  mdape: number;
  ppe10: number;
  /** IAAO: report a group only with at least min_group_n (30) sales after trimming. */
  reportable: boolean;
  codMet: boolean;
  prdMet: boolean;
  prbMet: boolean | null;
};

const within = (x: number, [lo, hi]: readonly number[]): boolean => x >= lo && x <= hi;

/** A full ratio study on one group; trims first unless `trim: false`. */
export function ratioStudy(estimates: readonly number[], prices: readonly number[], opts: { trim?: boolean } = {}): RatioStudy {
  const r = salesRatios(estimates, prices);
  const keep = opts.trim === false ? r.map(() => true) : iqrKeepMask(r);
  const e = estimates.filter((_, i) => keep[i]);
  const p = prices.filter((_, i) => keep[i]);
  const codV = cod(e, p);
  const prdV = prd(e, p);
  const prbV = prb(e, p);
  const g = RATIO_STUDY.v;
  return {
    n: r.length,
    nTrimmed: e.length,
    medianRatio: median(salesRatios(e, p)),
    cod: codV,
    prd: prdV,
    prb: prbV,
    mdape: mdape(e, p),
    ppe10: ppe(e, p),
    reportable: e.length >= g.min_group_n,
    codMet: within(codV, g.cod_good_range),
    prdMet: within(prdV, g.prd_good_range),
    prbMet: prbV === null ? null : within(prbV, g.prb_good_range),
  };
}

export type RatioRow = { estimate: number; price: number; group: string };

/** Ratio studies per group (keys sorted), each trimmed within its group; small groups are flagged, not dropped. */
export function ratioStudyByGroup(rows: readonly RatioRow[], opts: { trim?: boolean } = {}): Record<string, RatioStudy> {
  const groups = new Map<string, { e: number[]; p: number[] }>();
  for (const row of rows) {
    const g = groups.get(row.group) ?? { e: [], p: [] };
    g.e.push(row.estimate);
    g.p.push(row.price);
    groups.set(row.group, g);
  }
  const out: Record<string, RatioStudy> = {};
  for (const key of [...groups.keys()].sort()) {
    const g = groups.get(key)!;
    out[key] = ratioStudy(g.e, g.p, opts);
  }
  return out;
}
