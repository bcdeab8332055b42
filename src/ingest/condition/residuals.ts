// Cross-fitted hedonic residuals: each sale's log price minus what its facts, county-quarter and tract say it should
// be, with the expectation fitted on the OTHER folds (folds by parcel). A sale, and its parcel's other sales, never
// enter their own expectation, so a sale's noise cannot explain itself (the residual is a fair signal of condition).
//
// The fit is ours, not a library's, because it is specific: OLS on dense covariates + sparse county-quarter cells,
// alternated with two nested location effects (an area of a few miles, and the tract within it), each a mean residual
// shrunk toward zero (backfitting), all from per-fold sufficient statistics so K cross-fitted models cost one pass.
import { CONDITION_INFERENCE } from '../../registry/groups/condition.js';
import { choleskySolve } from '../../valuation/hedonic/linalg.js';
import { denseRow, foldOf, locationGroups, N_DENSE, quarterCells } from './design.js';
import type { ConditionInput } from './types.js';

type FoldStats = { xtx: Float64Array; xty: Float64Array; gN: Float64Array; gY: Float64Array; gX: Float64Array };

/** Per row: ln(price) − expectation, and the expectation (ln USD); NaN for rows outside `use`. */
export type Residuals = { resid: Float64Array; expected: Float64Array };

/**
 * Residual and expectation for every row with `use[i] = 1`. `use` marks the sales the fit may learn from and that get
 * a residual: arms-length, priced. Rows outside `use` are neither fitted nor scored.
 */
export function crossFitResiduals(x: ConditionInput, use: Uint8Array): Residuals {
  const cfg = CONDITION_INFERENCE.v;
  const K = cfg.crossfit_folds;
  const { cell, nCells } = quarterCells(x);
  const { group, nGroups, areaOfGroup, nAreas } = locationGroups(x);
  const P = N_DENSE + nCells;
  const folds: FoldStats[] = Array.from({ length: K }, () => ({
    xtx: new Float64Array(P * P), xty: new Float64Array(P), gN: new Float64Array(nGroups), gY: new Float64Array(nGroups), gX: new Float64Array(nGroups * P),
  }));
  const d = new Float64Array(N_DENSE);
  const fold = new Int32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    fold[i] = foldOf(x.parcelIdx[i], K);
    if (use[i] !== 1) continue;
    accumulate(folds[fold[i]], x, i, d, cell[i], group[i], P);
  }
  const total = sumStats(folds, P, nGroups);
  const resid = new Float64Array(x.length).fill(NaN);
  const expected = new Float64Array(x.length).fill(NaN);
  for (let f = 0; f < K; f++) {
    const train = minus(total, folds[f]);
    const { beta, tract, area } = backfit(train, P, nGroups, areaOfGroup, nAreas);
    for (let i = 0; i < x.length; i++) {
      if (use[i] !== 1 || fold[i] !== f) continue;
      denseRow(x, i, d);
      let pred = beta[N_DENSE + cell[i]] + tract[group[i]] + area[areaOfGroup[group[i]]];
      for (let a = 0; a < N_DENSE; a++) pred += beta[a] * d[a];
      resid[i] = Math.log(x.priceUsd[i]) - pred;
      expected[i] = pred;
    }
  }
  return { resid, expected };
}

function accumulate(s: FoldStats, x: ConditionInput, i: number, d: Float64Array, q: number, g: number, P: number): void {
  denseRow(x, i, d);
  const y = Math.log(x.priceUsd[i]);
  const qc = N_DENSE + q;
  for (let a = 0; a < N_DENSE; a++) {
    const da = d[a];
    if (da === 0) continue;
    for (let b = a; b < N_DENSE; b++) s.xtx[a * P + b] += da * d[b];
    s.xtx[a * P + qc] += da;
    s.xty[a] += da * y;
    s.gX[g * P + a] += da;
  }
  s.xtx[qc * P + qc] += 1;
  s.xty[qc] += y;
  s.gX[g * P + qc] += 1;
  s.gN[g] += 1;
  s.gY[g] += y;
}

function sumStats(folds: readonly FoldStats[], P: number, nGroups: number): FoldStats {
  const t: FoldStats = { xtx: new Float64Array(P * P), xty: new Float64Array(P), gN: new Float64Array(nGroups), gY: new Float64Array(nGroups), gX: new Float64Array(nGroups * P) };
  for (const f of folds) for (const k of ['xtx', 'xty', 'gN', 'gY', 'gX'] as const) for (let j = 0; j < t[k].length; j++) t[k][j] += f[k][j];
  return t;
}

function minus(a: FoldStats, b: FoldStats): FoldStats {
  const sub = (u: Float64Array, v: Float64Array): Float64Array => u.map((val, j) => val - v[j]);
  return { xtx: sub(a.xtx, b.xtx), xty: sub(a.xty, b.xty), gN: sub(a.gN, b.gN), gY: sub(a.gY, b.gY), gX: sub(a.gX, b.gX) };
}

/**
 * Alternates OLS for the covariates (location effects held), shrunken area means (covariates and tracts held) and
 * shrunken tract means (covariates and areas held). Tracts nest in areas, so area sums are sums of tract sums.
 */
function backfit(s: FoldStats, P: number, nGroups: number, areaOfGroup: Int32Array, nAreas: number): { beta: Float64Array; tract: Float64Array; area: Float64Array } {
  const cfg = CONDITION_INFERENCE.v;
  const a = new Float64Array(P * P);
  for (let r = 0; r < P; r++) for (let c = r; c < P; c++) a[r * P + c] = a[c * P + r] = s.xtx[r * P + c];
  for (let r = 0; r < P; r++) a[r * P + r] += cfg.ridge;
  const tract = new Float64Array(nGroups);
  const area = new Float64Array(nAreas);
  const fittedOf = (g: number, beta: Float64Array): number => {
    let f = 0;
    for (let j = 0; j < P; j++) f += s.gX[g * P + j] * beta[j];
    return f;
  };
  let beta: Float64Array = new Float64Array(P);
  for (let it = 0; it < cfg.backfit_iterations; it++) {
    const rhs = Float64Array.from(s.xty);
    for (let g = 0; g < nGroups; g++) {
      const loc = tract[g] + area[areaOfGroup[g]];
      if (loc === 0) continue;
      for (let j = 0; j < P; j++) rhs[j] -= loc * s.gX[g * P + j];
    }
    beta = choleskySolve(a, rhs, P);
    const fitted = Float64Array.from({ length: nGroups }, (_, g) => (s.gN[g] === 0 ? 0 : fittedOf(g, beta)));
    const aSum = new Float64Array(nAreas), aN = new Float64Array(nAreas);
    for (let g = 0; g < nGroups; g++) { aSum[areaOfGroup[g]] += s.gY[g] - fitted[g] - s.gN[g] * tract[g]; aN[areaOfGroup[g]] += s.gN[g]; }
    for (let h = 0; h < nAreas; h++) area[h] = aSum[h] / (aN[h] + cfg.area_shrink_sales);
    for (let g = 0; g < nGroups; g++) tract[g] = s.gN[g] === 0 ? 0 : (s.gY[g] - fitted[g] - s.gN[g] * area[areaOfGroup[g]]) / (s.gN[g] + cfg.tract_shrink_sales);
  }
  return { beta, tract, area };
}
