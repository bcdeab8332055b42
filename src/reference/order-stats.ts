// Order statistics of a scratch prefix by selection (f64-sort.ts selectF64) instead of a full sort, for the
// per-valuation quantiles of the area context: its tract pools hold hundreds to thousands of sales and the sort was
// the largest part of the estimate. The values are those of the sorted prefix, read by stats.ts's own formulas.
import { selectF64, sortF64Prefix } from './f64-sort.js';

/**
 * A stand-in for sortF64Prefix(a, n) that holds only the ranks asked for (each in [0, n)), so
 * quantileType7Sorted and medianSorted read the same values from it as from the sorted prefix (they read nothing
 * else). Rearranges a[0 .. n). With a NaN in the prefix it is the sorted prefix itself (NaNs last, as the sort).
 */
export function rankedPrefix(a: Float64Array, n: number, ranks: readonly number[]): ArrayLike<number> {
  for (let i = 0; i < n; i++) if (a[i] !== a[i]) return sortF64Prefix(a, n);
  const out: Record<number, number> & { length: number } = { length: n };
  // Each selection leaves every value before its rank no greater than any after it, so the next rank is selected
  // within what follows (ranks ascending, each once).
  let from = 0;
  for (const k of [...new Set(ranks)].sort((x, y) => x - y)) {
    selectF64(a, from, n - 1, k);
    out[k] = a[k];
    from = k + 1;
  }
  return out;
}

/** The ranks quantileType7Sorted reads for p over n values: ⌊(n − 1)·p⌋ and the next, clamped to n − 1. */
export function type7Ranks(n: number, p: number): [number, number] {
  const lo = Math.floor((n - 1) * p);
  return [lo, Math.min(lo + 1, n - 1)];
}

/** The ranks medianSorted reads over n values. */
export function medianRanks(n: number): [number, number] {
  return n % 2 === 1 ? [n >> 1, n >> 1] : [(n >> 1) - 1, n >> 1];
}
