// Exact, documented summary statistics shared by the reference derivation and its tests.

/**
 * Hyndman-Fan type 7 quantile (R's default, numpy 'linear'): h = (n - 1) p, x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]),
 * 0-based on the ascending-sorted sample. `sorted` must be sorted ascending and non-empty; p in [0, 1].
 */
export function quantileType7(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new Error('quantileType7: empty sample');
  if (!(p >= 0 && p <= 1)) throw new Error(`quantileType7: p=${p} outside [0, 1]`);
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** Mean and sample standard deviation (divisor n - 1; 0 when n = 1) of the values. */
export function meanSd(values: ArrayLike<number>): { mean: number; sd: number } {
  const n = values.length;
  if (n === 0) throw new Error('meanSd: empty sample');
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - mean) ** 2;
  return { mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0 };
}
