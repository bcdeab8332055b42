// Multi-unit comp stratification: a market-derived price adjustment between 2-, 3- and 4-unit buildings, estimated
// from the snapshot's sales strictly before a cutoff (like the time index) and applied to the kernel's comps in TS.
//
// Why an adjustment and not a unit-count band (measured on the default corpus, seed 20261121, 12-month holdout):
// a kernel-side band (ptype refined by units, coarse fallback when the fine stratum has < 5 comps) served from the
// fine stratum only 9 of 613 3-unit and 1 of 339 4-unit subjects (exact units; 2 vs 3–4: 22 and 9) — renovated
// 3/4-unit sales are too sparse — so the 4-unit bias (median estimate/price 1.067) stayed. An adjustment corrects every
// comp of another unit count instead, keeps the kernel ABI and its rejection list untouched, and never thins the pool.
// Measured effect (seeds 20261121, 777, 31337): 3-unit median estimate/price 1.015/1.007/1.027 → 1.005/1.005/1.017,
// 4-unit 1.067/1.016/1.090 → 1.056/1.009/1.082 (n ≈ 40 valued 4-unit sales per seed); segment metrics ~unchanged.
//
// Estimator (mf2_4 arms-length sales with known sqft, beds, condition and units 2..4, sale_day < cutoff):
//   OLS with tract fixed effects (within-tract demeaning) of ln(price) on ln(sqft), beds (the kernel bands beds but
//   does not adjust them), condition dummies and 3-unit / 4-unit dummies; premium(2) = 0, premium(u) = β_u.
//   The size elasticity is estimated, not fixed at comp_policy.gla_marginal_frac (0.5): living area grows with the
//   unit count, so a fixed elasticity below the market's pushes the size effect it misses into the unit dummies.
//   Measured on the 12-month holdout (seeds 20261121, 777, 31337), median estimate / generator true value of valued
//   mf2_4 sales, fixed → estimated elasticity: 3-unit 1.019/1.010/1.011 → 1.015/1.004/1.006, 4-unit
//   1.053/1.010/1.030 → 1.046/1.005/1.026, 2-unit 0.999/1.005/1.011 → 1.003/1.007/1.014 (gaps between unit counts narrow).
// Comp factor = exp(premium(subject units) − premium(comp units)); 1 when either unit count is unknown.
import type { CompsResult } from '../../kernel/types.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { CONDITION_CODE, PTYPE_CODE } from '../../store/columns.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import { choleskySolve } from '../hedonic/linalg.js';
import { median, medianSorted, quantileType7Sorted } from '../../reference/stats.js';
import { sortF64Prefix } from '../../reference/f64-sort.js';

export type UnitsPremium = {
  cutoffDay: number;
  /** Log premium by unit count relative to a 2-unit building (keys 2, 3, 4). */
  logPremium: Readonly<Record<2 | 3 | 4, number>>;
  /** Sales used per unit count. */
  sales: Readonly<Record<2 | 3 | 4, number>>;
};

/** One comp's unit-count adjustment (recorded beside the comp: arv comps are kernel rows in the same order). */
export type CompUnitsAdj = { row: number; units: number | null; factor: number };

const UNITS = [2, 3, 4] as const;
const COND_DUMMIES = [CONDITION_CODE.dated, CONDITION_CODE.renovated, CONDITION_CODE.new] as const;
/** Regressors: ln sqft, beds, 3 condition dummies (distressed = base), 3-unit and 4-unit dummies. */
const P = 2 + COND_DUMMIES.length + 2;

const isUnits = (u: number): u is 2 | 3 | 4 => u === 2 || u === 3 || u === 4;

function regressors(c: SalesColumns, r: number, out: Float64Array): void {
  out[0] = Math.log(c.sqft[r]);
  out[1] = c.beds[r];
  COND_DUMMIES.forEach((code, k) => (out[2 + k] = c.condition[r] === code ? 1 : 0));
  out[P - 2] = c.units[r] === 3 ? 1 : 0;
  out[P - 1] = c.units[r] === 4 ? 1 : 0;
}

function usable(c: SalesColumns, arms: Uint8Array, r: number, cutoffDay: number): boolean {
  return arms[r] === 1 && c.saleDay[r] < cutoffDay && c.ptype[r] === PTYPE_CODE.mf2_4 && isUnits(c.units[r]) && c.sqft[r] > 0 && c.priceUsd[r] > 0
    && c.beds[r] >= 0 && c.condition[r] <= CONDITION_CODE.new;
}

/** Rows by tract with their response y (only tracts with at least two usable sales carry within-tract variation). */
function rowsByTract(c: SalesColumns, arms: Uint8Array, cutoffDay: number): Map<number, number[]> {
  const byTract = new Map<number, number[]>();
  for (let r = 0; r < c.length; r++) {
    if (!usable(c, arms, r, cutoffDay)) continue;
    const list = byTract.get(c.tractIdx[r]);
    if (list) list.push(r);
    else byTract.set(c.tractIdx[r], [r]);
  }
  return byTract;
}

/** Premiums estimated from sales before `cutoffDay`, or null when a unit count has too few sales or the design is singular. */
export function estimateUnitsPremium(c: SalesColumns, cutoffDay: number, arms: Uint8Array): UnitsPremium | null {
  const xtx = new Float64Array(P * P);
  const xty = new Float64Array(P);
  const counts = { 2: 0, 3: 0, 4: 0 };
  const x = new Float64Array(P);
  for (const rows of rowsByTract(c, arms, cutoffDay).values()) {
    if (rows.length < 2) continue;
    const xs = rows.map((r) => (regressors(c, r, x), Float64Array.from(x)));
    const ys = rows.map((r) => Math.log(c.priceUsd[r]));
    const xMean = new Float64Array(P);
    xs.forEach((v) => v.forEach((val, k) => (xMean[k] += val / rows.length)));
    const yMean = ys.reduce((a, b) => a + b, 0) / rows.length;
    rows.forEach((r, i) => {
      counts[c.units[r] as 2 | 3 | 4]++;
      const d = xs[i].map((val, k) => val - xMean[k]);
      for (let a = 0; a < P; a++) {
        xty[a] += d[a] * (ys[i] - yMean);
        for (let b = 0; b < P; b++) xtx[a * P + b] += d[a] * d[b];
      }
    });
  }
  if (UNITS.some((u) => counts[u] < TIER1.v.units_adj_min_sales)) return null;
  const beta = solveActive(xtx, xty);
  return beta ? { cutoffDay, logPremium: { 2: 0, 3: beta[P - 2], 4: beta[P - 1] }, sales: counts } : null;
}

/** β of the regressors with within-tract variation (an absent condition is dropped, β = 0); null when a units dummy
 * has none or the design is collinear — no adjustment rather than a guess. */
function solveActive(xtx: Float64Array, xty: Float64Array): Float64Array | null {
  const active = Array.from({ length: P }, (_, k) => k).filter((k) => xtx[k * P + k] > 1e-9);
  if (!active.includes(P - 2) || !active.includes(P - 1)) return null;
  const m = active.length;
  const a = new Float64Array(m * m);
  active.forEach((i, r) => active.forEach((j, col) => (a[r * m + col] = xtx[i * P + j])));
  try {
    const sub = choleskySolve(a, Float64Array.from(active, (i) => xty[i]), m);
    const beta = new Float64Array(P);
    active.forEach((i, r) => (beta[i] = sub[r]));
    return beta;
  } catch {
    return null;
  }
}

/** exp(premium(subject) − premium(comp)); 1 when there is no premium or either unit count is not 2..4. */
export function unitsFactor(p: UnitsPremium | null, subjectUnits: number | null | undefined, compUnits: number): number {
  if (!p || subjectUnits == null || !isUnits(subjectUnits) || !isUnits(compUnits)) return 1;
  return Math.exp(p.logPremium[subjectUnits] - p.logPremium[compUnits]);
}

/** The kernel's summary (stats.rs summarize) of adjusted prices: median, type-7 quartiles, fsd = scale × MAD(ln). */
export function summarizeAdjusted(prices: readonly number[]): CompsResult['stats'] {
  if (prices.length === 0) return { n: 0, median: null, q25: null, q75: null, fsd: null };
  // One sorted copy serves the median and both quartiles; the logs, taken along it, come sorted (ln is monotone), so
  // their sort, kept for any odd input, is a single insertion pass. The same values as median/quantileType7.
  const n = prices.length;
  const sorted = sortF64Prefix(Float64Array.from(prices), n);
  const logs = sortF64Prefix(sorted.map(Math.log), n);
  const mLog = medianSorted(logs);
  return {
    n,
    median: medianSorted(sorted),
    q25: quantileType7Sorted(sorted, 0.25),
    q75: quantileType7Sorted(sorted, 0.75),
    fsd: COMP_POLICY.v.mad_scale * median(logs.map((v) => Math.abs(v - mLog))),
  };
}

/**
 * The comps of a multi-unit subject re-priced to the subject's unit count: each accepted comp's adjusted price times
 * its factor, and the summary recomputed over them. Selection, trim and rejections stay the kernel's. Unchanged
 * (same object, empty adjustments) when the subject is not 2..4 units or no premium is available.
 */
export function applyUnitsAdjustment(res: CompsResult, c: SalesColumns, p: UnitsPremium | null, subjectUnits: number | null | undefined): { res: CompsResult; adjustments: CompUnitsAdj[] } {
  if (!p || subjectUnits == null || !isUnits(subjectUnits)) return { res, adjustments: [] };
  const adjustments = res.accepted.map((a) => ({ row: a.row, units: c.units[a.row] > 0 ? c.units[a.row] : null, factor: unitsFactor(p, subjectUnits, c.units[a.row]) }));
  const accepted = res.accepted.map((a, i) => ({ ...a, adjustedPrice: a.adjustedPrice * adjustments[i].factor }));
  return { res: { ...res, accepted, stats: summarizeAdjusted(accepted.map((a) => a.adjustedPrice)) }, adjustments };
}
