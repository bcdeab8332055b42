// What the real files themselves allow, per PIN area (generator 3.2.0 report): the sampling noise of the real 2019
// IQR and tail share (a real area of 700 sales knows its own IQR to a few percent only, its tail share to 5-20%),
// and the spread of the real class-2 neighborhood medians alone. The realised anchoring puts every synthetic
// neighborhood-year on its real median, so where those medians (condos included: the class-2 aggregates hold them,
// the 2019 dispersion sample does not) spread as wide as the real houses do in total, no within-neighborhood spread
// the houses can have brings the area's IQR within 10%: the two real files disagree there, and the report says so.
import type { AreaDispersion, NbhdYearSales } from '../../reference/types.js';

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Density of the real centred ln prices at percentile k (1..99), from the neighboring percentiles. */
function densityAt(q: readonly number[], k: number): number {
  return 0.02 / (q[k] - q[k - 2]); // q[k - 1] is the k-th percentile
}

/** Standard error of the real IQR over the IQR (asymptotic variance of two sample quantiles and their covariance). */
export function realIqrRelSe(d: AreaDispersion): number {
  const f25 = densityAt(d.centeredLogQuantiles, 25), f75 = densityAt(d.centeredLogQuantiles, 75);
  const v = (0.25 * 0.75) / (d.n * f25 * f25) + (0.75 * 0.25) / (d.n * f75 * f75) - (2 * 0.25 * 0.25) / (d.n * f25 * f75);
  return r4(Math.sqrt(Math.max(v, 0)) / d.iqrLog);
}

/** Standard error of the real tail share over the share (binomial). */
export function realTailRelSe(d: AreaDispersion): number {
  return r4(Math.sqrt((d.tailShare * (1 - d.tailShare)) / d.n) / d.tailShare);
}

/** Count-weighted quantile of (value, weight) pairs (sorted in place). */
function weightedQuantile(pairs: Array<[number, number]>, p: number): number {
  pairs.sort((a, b) => a[0] - b[0]);
  const total = pairs.reduce((s, x) => s + x[1], 0);
  let c = 0;
  for (const [x, w] of pairs) if ((c += w) >= p * total) return x;
  return pairs[pairs.length - 1][0];
}

/**
 * Per PIN area: IQR (ln) of the real neighborhood-year medians of `years`, each centred on its area-year's
 * count-weighted median and weighted by its real count; `areaOf` gives a neighborhood's PIN area.
 */
export function realBetweenNbhdIqr(real: readonly NbhdYearSales[], areaOf: ReadonlyMap<string, string>, years: readonly number[]): Map<string, number> {
  const byAreaYear = new Map<string, Array<[number, number]>>();
  for (const r of real) {
    const a = areaOf.get(r.townNbhd);
    if (a === undefined || !years.includes(r.year) || r.count <= 0) continue;
    const key = `${a}|${r.year}`, l = byAreaYear.get(key) ?? [];
    l.push([Math.log(r.median), r.count]);
    byAreaYear.set(key, l);
  }
  const centred = new Map<string, Array<[number, number]>>();
  for (const [key, pairs] of byAreaYear) {
    const med = weightedQuantile(pairs, 0.5), a = key.split('|')[0], l = centred.get(a) ?? [];
    for (const [x, w] of pairs) l.push([x - med, w]);
    centred.set(a, l);
  }
  return new Map([...centred].filter(([, l]) => l.length >= 2).map(([a, l]) => [a, r4(weightedQuantile(l, 0.75) - weightedQuantile(l, 0.25))]));
}
