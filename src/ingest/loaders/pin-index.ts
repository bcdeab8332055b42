// Groups rows by PIN without a Map: PINs of 14 digits are heap numbers in V8, and Maps of millions of them were the
// top cost of a county-scale ingest. A native sort of the keys, a binary search per row and a counting sort instead.

export type PinIndex = {
  /** Distinct PIN keys, ascending. */
  pins: Float64Array;
  /** Rows of group g are rows[start[g] .. start[g+1]), in file order. */
  start: Int32Array;
  rows: Int32Array;
};

/** Index of `key` in the ascending `sorted`, or -1. */
export function binarySearch(sorted: Float64Array, key: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = sorted[mid];
    if (k === key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function buildPinIndex(keys: Float64Array): PinIndex {
  const n = keys.length;
  const sorted = Float64Array.from(keys).sort();
  let u = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[u++] = sorted[i];
  const pins = sorted.slice(0, u);
  const group = new Int32Array(n);
  const start = new Int32Array(u + 1);
  for (let i = 0; i < n; i++) {
    group[i] = binarySearch(pins, keys[i]);
    start[group[i] + 1]++;
  }
  for (let g = 0; g < u; g++) start[g + 1] += start[g];
  const fill = start.slice(0, u);
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[fill[group[i]]++] = i;
  return { pins, start, rows };
}

/** Group of `pin`, or -1. */
export function findGroup(ix: PinIndex, pin: number): number {
  return binarySearch(ix.pins, pin);
}

/** The row of group g that `better(candidate, best)` prefers over all others (first in file order on ties). */
export function pickRow(ix: PinIndex, g: number, better: (candidate: number, best: number) => boolean): number {
  let best = -1;
  for (let k = ix.start[g]; k < ix.start[g + 1]; k++) {
    const r = ix.rows[k];
    if (best === -1 || better(r, best)) best = r;
  }
  return best;
}

/** For each a[i] (ascending), the index j with b[j] === a[i] in the ascending `b`, or -1: one linear merge pass. */
export function alignSorted(a: Float64Array, b: Float64Array): Int32Array {
  const out = new Int32Array(a.length);
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    while (j < b.length && b[j] < a[i]) j++;
    out[i] = j < b.length && b[j] === a[i] ? j : -1;
  }
  return out;
}

/** Rows of group g ordered by `day` ascending, file order on ties (insertion sort: groups hold a few rows). */
export function rowsByDay(ix: PinIndex, g: number, day: Int32Array): number[] {
  const rows: number[] = [];
  for (let k = ix.start[g]; k < ix.start[g + 1]; k++) {
    const r = ix.rows[k];
    let p = rows.length;
    while (p > 0 && day[rows[p - 1]] > day[r]) p--;
    rows.splice(p, 0, r);
  }
  return rows;
}
