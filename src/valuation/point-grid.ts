// The one lat/lon point grid: square cells of cellDeg degrees keyed by gridCellKey, stored as flat typed arrays
// (compressed rows: the occupied keys ascending, each cell's rows contiguous and in row order), and the walk over the
// cells a radius query must read. Replaces a Map of one JS array per cell: for the county's 1.9M parcels that was a
// few hundred thousand heap objects for every major GC to mark, and a hash lookup on a non-Smi key per cell read.
import { MI_PER_DEG_LAT } from '../reference/geo.js';
import { sortF64Prefix } from '../reference/f64-sort.js';

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

/** Column span of gridCellKey: a column index must lie in [-span/2, span/2) (lon/cellDeg, far inside it). */
const CELL_SPAN = 2 ** 26;

/** One number per (row y, column x) cell, exact in float64 and distinct for every |x| < 2^25, |y| < 2^26. */
export function gridCellKey(y: number, x: number): number {
  return y * CELL_SPAN + (x + CELL_SPAN / 2);
}

/** Key of the cell (row ⌊lat/cellDeg⌋, column ⌊lon/cellDeg⌋) holding a point; NaN (left out of a grid) if not finite. */
export function cellKeyOf(lat: number, lon: number, cellDeg: number): number {
  return Number.isFinite(lat) && Number.isFinite(lon) ? gridCellKey(Math.floor(lat / cellDeg), Math.floor(lon / cellDeg)) : NaN;
}

/** Half-height in degrees of a box holding every point within radiusMi (on reference/geo.ts's sphere). */
export const latHalfDeg = (radiusMi: number): number => radiusMi / MI_PER_DEG_LAT;

/**
 * Half-width in degrees of that box at latitude `lat`: a longitude degree is cos(lat) as long as a latitude degree,
 * taken at the box's edge farthest from the equator so the box holds the whole circle (cos floored at 0.1).
 */
export function lonHalfDeg(lat: number, radiusMi: number): number {
  const dLat = latHalfDeg(radiusMi);
  return dLat / Math.max(0.1, Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180));
}

/**
 * Visits the cells of `g` (keyed by cellKeyOf at cellDeg) under the box of latHalfDeg × lonHalfDeg around (lat, lon),
 * rows then columns ascending, each occupied cell once: every point within radiusMi lies in one of them.
 */
export function forEachCellNear(g: PointGrid, cellDeg: number, lat: number, lon: number, radiusMi: number, visit: (cell: number) => void): void {
  const dLat = latHalfDeg(radiusMi), dLon = lonHalfDeg(lat, radiusMi);
  const x0 = Math.floor((lon - dLon) / cellDeg), x1 = Math.floor((lon + dLon) / cellDeg);
  const y1 = Math.floor((lat + dLat) / cellDeg);
  for (let y = Math.floor((lat - dLat) / cellDeg); y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const c = cellIndex(g, gridCellKey(y, x));
      if (c >= 0) visit(c);
    }
  }
}
