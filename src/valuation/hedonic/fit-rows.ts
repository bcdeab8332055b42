// One segment's least-squares fit: ln(price) on covariates + quarter dummies with tract fixed effects absorbed by
// within-tract demeaning (Frisch–Waugh–Lovell: exact for one fixed-effect dimension, no tract dummies), then the
// tract effects recovered and shrunk toward their neighborhood mean by empirical Bayes, weight n/(n+k), k = σ²/τ².
import { HEDONIC } from '../../registry/groups/hedonic.js';
import { haversineMi } from '../../reference/geo.js';
import { COVARIATES } from './design.js';
import { choleskySolve } from './linalg.js';
import type { TractEffect } from './types.js';

/** Rows of one segment: y = ln(price), cov = covariates (COVARIATES order), quarter label, tract GEOID. */
export type SegmentRows = { y: number[]; cov: number[][]; quarter: string[]; tract: string[] };

export type RowsFit = {
  n: number; sigma: number; r2: number; coefs: number[]; featureMeans: number[]; quarters: Record<string, number>;
  lastQuarter: string; tracts: Record<string, TractEffect>; shrinkK: number; tau2: number; segmentMean: number;
};

const P0 = COVARIATES.length;

/**
 * Fits one segment. `centroid` gives each tract's centroid (for the neighborhood parent). Null when the rows cannot
 * identify the model (no more rows than coefficients plus tract effects).
 */
export function fitRows(rows: SegmentRows, centroid: (geoid: string) => { lat: number; lon: number }): RowsFit | null {
  const n = rows.y.length;
  const { qLabels, qIdx } = poolQuarters(rows.quarter);
  const tLabels = [...new Set(rows.tract)].sort();
  const tIdx = new Map(tLabels.map((t, i) => [t, i]));
  const p = P0 + qLabels.length - 1; // first quarter is the base
  if (n <= p + tLabels.length) return null;
  const row = (i: number, out: Float64Array): void => {
    out.fill(0);
    for (let j = 0; j < P0; j++) out[j] = rows.cov[i][j];
    const q = qIdx.get(rows.quarter[i]) as number;
    if (q > 0) out[P0 + q - 1] = 1;
  };
  const T = tLabels.length;
  const tn = new Float64Array(T), ty = new Float64Array(T), tx = new Float64Array(T * p);
  const xi = new Float64Array(p);
  const tr = rows.tract.map((g) => tIdx.get(g) as number);
  for (let i = 0; i < n; i++) {
    row(i, xi);
    const t = tr[i];
    tn[t]++; ty[t] += rows.y[i];
    for (let j = 0; j < p; j++) tx[t * p + j] += xi[j];
  }
  for (let t = 0; t < T; t++) { ty[t] /= tn[t]; for (let j = 0; j < p; j++) tx[t * p + j] /= tn[t]; }
  const beta = solveWithin(n, p, tr, rows.y, row, ty, tx);
  const { ssr, sst } = sums(n, p, tr, rows.y, row, ty, tx, beta);
  const kept = beta.filter((b) => b !== 0).length;
  const sigma2 = ssr / Math.max(1, n - kept - T);
  const raw = Array.from({ length: T }, (_, t) => ty[t] - dot(tx, t * p, beta, p));
  const eb = shrinkTracts(tLabels, tn, raw, sigma2, centroid);
  const quarters: Record<string, number> = {};
  for (const [q, i] of qIdx) quarters[q] = i === 0 ? 0 : beta[P0 + i - 1];
  const featureMeans = COVARIATES.map((_, j) => rows.cov.reduce((s, c) => s + c[j], 0) / n);
  return { n, sigma: Math.sqrt(sigma2), r2: sst > 0 ? 1 - ssr / sst : 0, coefs: Array.from(beta.subarray(0, P0)), featureMeans, quarters, lastQuarter: [...qIdx.keys()].sort().pop() as string, ...eb };
}

/**
 * Quarter dummies: each calendar quarter with at least min_quarter_n sales is its own level; a thinner quarter is
 * pooled with the previous kept quarter (the first kept one when it leads). Returns the kept labels (first = base,
 * effect 0) and every seen label → kept index.
 */
function poolQuarters(labels: readonly string[]): { qLabels: string[]; qIdx: Map<string, number> } {
  const counts = new Map<string, number>();
  for (const q of labels) counts.set(q, (counts.get(q) ?? 0) + 1);
  const sorted = [...counts.keys()].sort();
  const qLabels: string[] = [];
  const qIdx = new Map<string, number>();
  const pending: string[] = [];
  for (const q of sorted) {
    if ((counts.get(q) as number) < HEDONIC.v.min_quarter_n) {
      if (qLabels.length > 0) qIdx.set(q, qLabels.length - 1);
      else pending.push(q);
      continue;
    }
    qLabels.push(q);
    qIdx.set(q, qLabels.length - 1);
    for (const p of pending.splice(0)) qIdx.set(p, 0);
  }
  if (qLabels.length === 0) { qLabels.push(sorted[0]); for (const q of sorted) qIdx.set(q, 0); }
  return { qLabels, qIdx };
}

function dot(a: Float64Array, off: number, b: Float64Array, p: number): number {
  let s = 0;
  for (let j = 0; j < p; j++) s += a[off + j] * b[j];
  return s;
}

type RowFn = (i: number, out: Float64Array) => void;

/** β from the demeaned normal equations; columns with no within-tract variation (e.g. units in sfh) get β = 0. */
function solveWithin(n: number, p: number, tr: number[], y: number[], row: RowFn, ty: Float64Array, tx: Float64Array): Float64Array {
  const xtx = new Float64Array(p * p), xty = new Float64Array(p), xi = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    row(i, xi);
    const t = tr[i];
    for (let j = 0; j < p; j++) xi[j] -= tx[t * p + j];
    const yi = y[i] - ty[t];
    for (let a = 0; a < p; a++) {
      if (xi[a] === 0) continue;
      xty[a] += xi[a] * yi;
      for (let b = 0; b <= a; b++) xtx[a * p + b] += xi[a] * xi[b];
    }
  }
  const keep = [...Array(p).keys()].filter((j) => xtx[j * p + j] > 1e-9 * n);
  const m = keep.length;
  const a = new Float64Array(m * m), b = new Float64Array(m);
  let meanDiag = 0;
  keep.forEach((j) => (meanDiag += xtx[j * p + j] / m));
  keep.forEach((ja, ia) => {
    b[ia] = xty[ja];
    keep.forEach((jb, ib) => (a[ia * m + ib] = ja >= jb ? xtx[ja * p + jb] : xtx[jb * p + ja]));
    a[ia * m + ia] += HEDONIC.v.ridge_lambda * meanDiag;
  });
  const sol = choleskySolve(a, b, m);
  const beta = new Float64Array(p);
  keep.forEach((j, i) => (beta[j] = sol[i]));
  return beta;
}

function sums(n: number, p: number, tr: number[], y: number[], row: RowFn, ty: Float64Array, tx: Float64Array, beta: Float64Array): { ssr: number; sst: number } {
  const xi = new Float64Array(p);
  let ybar = 0;
  for (let i = 0; i < n; i++) ybar += y[i] / n;
  let ssr = 0, sst = 0;
  for (let i = 0; i < n; i++) {
    row(i, xi);
    const t = tr[i];
    let e = y[i] - ty[t];
    for (let j = 0; j < p; j++) e -= (xi[j] - tx[t * p + j]) * beta[j];
    ssr += e * e;
    sst += (y[i] - ybar) ** 2;
  }
  return { ssr, sst };
}

/**
 * Empirical Bayes (method of moments): τ² = var(raw effects) − mean(σ²/n_t), floored; k = max(k_floor, σ²/τ²).
 * Each tract's effect becomes w·raw + (1−w)·parent with w = n/(n+k); parent = n-weighted mean raw effect of the
 * other tracts whose centroid is within parent_radius_mi, else the segment's n-weighted mean.
 */
function shrinkTracts(labels: string[], tn: Float64Array, raw: number[], sigma2: number, centroid: (g: string) => { lat: number; lon: number }) {
  const T = labels.length;
  const N = tn.reduce((s, v) => s + v, 0);
  const segmentMean = raw.reduce((s, r, t) => s + r * tn[t], 0) / N;
  const mu = raw.reduce((s, r) => s + r, 0) / T;
  const between = T > 1 ? raw.reduce((s, r) => s + (r - mu) ** 2, 0) / (T - 1) : 0;
  const noise = Array.from(tn).reduce((s, v) => s + sigma2 / v, 0) / T;
  const tau2 = Math.max(between - noise, 1e-6);
  const shrinkK = Math.max(HEDONIC.v.shrink_k_floor, sigma2 / tau2);
  const cs = labels.map(centroid);
  const tracts: Record<string, TractEffect> = {};
  labels.forEach((g, t) => {
    let s = 0, w = 0;
    for (let u = 0; u < T; u++) {
      if (u === t || haversineMi(cs[t].lat, cs[t].lon, cs[u].lat, cs[u].lon) > HEDONIC.v.parent_radius_mi) continue;
      s += raw[u] * tn[u]; w += tn[u];
    }
    const parent = w > 0 ? s / w : segmentMean;
    const weight = tn[t] / (tn[t] + shrinkK);
    tracts[g] = { n: tn[t], raw: raw[t], parent, weight, shrunk: weight * raw[t] + (1 - weight) * parent, lat: cs[t].lat, lon: cs[t].lon };
  });
  return { tracts, shrinkK, tau2, segmentMean };
}
