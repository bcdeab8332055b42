// A grid of points as flat typed arrays (compressed rows): the occupied cell keys in ascending order, each cell's
// rows contiguous and in row order. Replaces a Map of one JS array per cell: for the county's 1.9M parcels that was
// a few hundred thousand heap objects for every major GC to mark, and a hash lookup on a non-Smi key per cell read.
import { sortF64Prefix } from './f64-sort.js';

/** Cell c holds rows[offsets[c] .. offsets[c + 1]); keys[c] is its key. */
export type PointGrid = { keys: Float64Array; offsets: Uint32Array; rows: Uint32Array };

/** First index with keys[i] >= key, or keys.length. */
function lowerBound(keys: Float64Array, key: number): number {
  let lo = 0, hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The cell index of `key`, or -1 when no point lies in that cell. */
export function cellIndex(g: PointGrid, key: number): number {
  const c = lowerBound(g.keys, key);
  return c < g.keys.length && g.keys[c] === key ? c : -1;
}

/** Groups rows 0..n-1 by `keyOf(row)` (NaN: the row is left out); rows of a cell stay in ascending row order. */
export function buildPointGrid(n: number, keyOf: (row: number) => number): PointGrid {
  const rowKey = new Float64Array(n);
  for (let i = 0; i < n; i++) rowKey[i] = keyOf(i);
  const sorted = sortF64Prefix(Float64Array.from(rowKey), n); // NaNs last
  let cells = 0;
  for (let i = 0; i < n && sorted[i] === sorted[i]; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[cells++] = sorted[i];
  const keys = sorted.slice(0, cells);
  const offsets = new Uint32Array(cells + 1);
  const cellOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    cellOf[i] = rowKey[i] === rowKey[i] ? lowerBound(keys, rowKey[i]) : -1;
    if (cellOf[i] >= 0) offsets[cellOf[i] + 1]++;
  }
  for (let c = 0; c < cells; c++) offsets[c + 1] += offsets[c];
  const fill = offsets.slice(0, cells);
  const rows = new Uint32Array(offsets[cells]);
  for (let i = 0; i < n; i++) if (cellOf[i] >= 0) rows[fill[cellOf[i]]++] = i;
  return { keys, offsets, rows };
}
