// The one implementation of order statistics (median, quantiles) and mean/sd, for the service, the reference
// derivation and their tests. Same definitions as the kernel's (crates/avm-kernel/src/stats.rs); sorting is
// f64-sort.ts (NaNs last). Lives in reference/, the lowest layer every user (valuation, pulse, derive) may import.
import { AppError } from '../errors/app-error.js';
import { sortF64Prefix } from './f64-sort.js';

function empty(what: string): AppError {
  return new AppError('validation_failed', `${what} of an empty sample`);
}

/**
 * Hyndman–Fan type 7 quantile (R's default, numpy 'linear') of an ascending, non-empty sample x(0..n−1):
 * h = (n − 1)·p, q = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋ + 1] − x[⌊h⌋]), the upper index clamped to n − 1; p in [0, 1].
 * No copy and no sort, so several quantiles can share one sort.
 */
export function quantileType7Sorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw empty('quantile');
  if (!(p >= 0 && p <= 1)) throw new AppError('validation_failed', `quantile p=${p} outside [0, 1]`);
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** quantileType7Sorted of any non-empty sample (sorts a copy; the input is not touched). */
export function quantileType7(xs: ArrayLike<number>, p: number): number {
  if (xs.length === 0) throw empty('quantile');
  return quantileType7Sorted(sortedCopy(xs), p);
}

/**
 * Median of an ascending, non-empty sample: the middle value for odd n, (x[n/2 − 1] + x[n/2]) / 2 for even n.
 * Equal to type 7 at p = 0.5 in exact arithmetic, but written as the midpoint (as stats.rs median_sorted): the type-7
 * form x[lo] + 0.5·(x[hi] − x[lo]) can differ from it in the last bit, and served numbers are pinned to this one.
 */
export function medianSorted(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  if (n === 0) throw empty('median');
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** medianSorted of any non-empty sample (sorts a copy; the input is not touched). */
export function median(xs: ArrayLike<number>): number {
  if (xs.length === 0) throw empty('median');
  return medianSorted(sortedCopy(xs));
}

/** medianSorted of a[0 .. n), n ≥ 1, sorting that prefix in place: no allocation, for per-valuation scratch buffers. */
export function medianOfPrefix(a: Float64Array, n: number): number {
  return medianSorted(sortF64Prefix(a, n));
}

/** Mean and sample standard deviation (divisor n − 1; 0 when n = 1) of a non-empty sample. */
export function meanSd(values: ArrayLike<number>): { mean: number; sd: number } {
  const n = values.length;
  if (n === 0) throw empty('mean');
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - mean) ** 2;
  return { mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0 };
}

function sortedCopy(xs: ArrayLike<number>): Float64Array {
  const a = Float64Array.from(xs);
  return sortF64Prefix(a, a.length);
}

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** Log density of the normal distribution with mean `m` and standard deviation `s` at `x`. */
export const normalLogPdf = (x: number, m: number, s: number): number => -0.5 * ((x - m) / s) ** 2 - Math.log(s) - LOG_SQRT_2PI;

/** Density of the normal distribution with mean `m` and standard deviation `s` at `x`. */
export const normalPdf = (x: number, m: number, s: number): number => Math.exp(normalLogPdf(x, m, s));
