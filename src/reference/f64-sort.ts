// Allocation-free ascending sort of a Float64Array prefix, for the order statistics (stats.ts: the per-valuation
// quantiles of the area context and premiums) and the point grid's keys. TypedArray.prototype.sort copies its elements
// into a boxed work array (a heap number per element), which was most of what a valuation allocated in the area
// context; this sorts in place. Same order as the built-in for every value except that -0 and +0 compare equal here
// (the quantiles read them as the same number).

/** Below this length a range is finished by insertion sort (fewer compares and swaps than partitioning). */
const INSERTION_MAX = 16;

/** Sorts a[0 .. n) ascending in place, NaNs last (as TypedArray.prototype.sort); returns a.subarray(0, n). */
export function sortF64Prefix(a: Float64Array, n: number): Float64Array {
  // NaN compares false both ways: move them behind the numbers first, then sort the numbers only.
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = a[i];
    if (v === v) a[m++] = v;
  }
  for (let i = m; i < n; i++) a[i] = NaN;
  quicksort(a, 0, m - 1);
  return a.subarray(0, n);
}

function insertion(a: Float64Array, lo: number, hi: number): void {
  for (let i = lo + 1; i <= hi; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

/** Left end of the right part of the last partition() (a second return value without allocating a pair). */
let partitionRight = 0;

/**
 * Hoare partition of a[lo .. hi] around the median of three: returns j and sets partitionRight to i, with
 * a[lo .. j] <= pivot <= a[i .. hi] and every slot strictly between j and i holding the pivot.
 */
function partition(a: Float64Array, lo: number, hi: number): number {
  const mid = lo + ((hi - lo) >> 1);
  const x = a[lo], y = a[mid], z = a[hi];
  const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
  let i = lo, j = hi;
  while (i <= j) {
    while (a[i] < pivot) i++;
    while (a[j] > pivot) j--;
    if (i <= j) {
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
      i++;
      j--;
    }
  }
  partitionRight = i;
  return j;
}

/** Hoare-partition quicksort with a median-of-three pivot; recursion on the smaller side keeps the depth ≤ log2 n. */
function quicksort(a: Float64Array, lo: number, hi: number): void {
  while (hi - lo >= INSERTION_MAX) {
    const j = partition(a, lo, hi);
    const i = partitionRight;
    if (j - lo < hi - i) {
      quicksort(a, lo, j);
      lo = i;
    } else {
      quicksort(a, i, hi);
      hi = j;
    }
  }
  insertion(a, lo, hi);
}

/**
 * Rearranges a[lo .. hi] (no NaNs) so that a[k] holds what it would hold sorted, with no greater value before it and
 * no smaller one after it (quickselect on quicksort's partition): one order statistic without sorting the rest.
 */
export function selectF64(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi - lo >= INSERTION_MAX) {
    if (k === lo) return minToFront(a, lo, hi);
    const j = partition(a, lo, hi);
    const i = partitionRight;
    // Now a[lo .. j] <= pivot <= a[i .. hi], and every slot strictly between j and i holds the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
  insertion(a, lo, hi);
}

/** Swaps the least of a[lo .. hi] into a[lo] (the next order statistic after a selected one). */
function minToFront(a: Float64Array, lo: number, hi: number): void {
  let m = lo;
  for (let i = lo + 1; i <= hi; i++) if (a[i] < a[m]) m = i;
  const t = a[lo];
  a[lo] = a[m];
  a[m] = t;
}

/** A growable scratch buffer owned by one caller (module-level, single-threaded, never held across calls). */
export class F64Scratch {
  private buf = new Float64Array(256);

  /** A buffer of at least n slots; its contents are garbage until written. */
  take(n: number): Float64Array {
    if (this.buf.length < n) this.buf = new Float64Array(Math.max(n, this.buf.length * 2));
    return this.buf;
  }
}
