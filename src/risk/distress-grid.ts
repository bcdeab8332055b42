// Counts the sales (and the distressed ones) within a radius and a trailing day window of a point, through a grid of
// the snapshot's sales built once per sales columns: each cell holds its rows sorted by sale day, so a query reads the
// cells under the radius's bounding box and only their rows inside the window (two binary searches each).
import { haversineMi } from '../reference/geo.js';
import { RISK } from '../registry/groups/risk.js';
import { CONDITION_CODE } from '../store/columns.js';
import type { SalesColumns } from '../store/sales-columns.js';
import { buildPointGrid, cellKeyOf, forEachCellNear, latHalfDeg, lonHalfDeg, type PointGrid } from '../valuation/point-grid.js';

/** The sales point grid (valuation/point-grid.ts), each cell's rows re-sorted by sale day. */
type DistressGrid = { cellDeg: number; grid: PointGrid };

const grids = new WeakMap<SalesColumns, Map<number, DistressGrid>>();

function buildGrid(s: SalesColumns, cellDeg: number): DistressGrid {
  const grid = buildPointGrid(s.length, (i) => cellKeyOf(s.lat[i], s.lon[i], cellDeg));
  for (let c = 0; c + 1 < grid.offsets.length; c++) grid.rows.subarray(grid.offsets[c], grid.offsets[c + 1]).sort((a, b) => s.saleDay[a] - s.saleDay[b]);
  return { cellDeg, grid };
}

/** The grid for these columns and cell size, built on first use and kept as long as the columns live. */
function gridFor(s: SalesColumns, radiusMi: number): DistressGrid {
  const cellDeg = latHalfDeg(radiusMi);
  let bySize = grids.get(s);
  if (!bySize) grids.set(s, (bySize = new Map()));
  let g = bySize.get(cellDeg);
  if (!g) bySize.set(cellDeg, (g = buildGrid(s, cellDeg)));
  return g;
}

/** First position in rows[lo, hi) (sorted by sale day) whose day is greater than `day`. */
function firstAfter(s: SalesColumns, rows: Uint32Array, lo: number, hi: number, day: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.saleDay[rows[mid]] > day) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Sales within radiusMi of (lat, lon) with sale day in (asOfDay − windowDays, asOfDay], and how many were distressed. */
export function distressNear(s: SalesColumns, lat: number, lon: number, asOfDay: number, radiusMi: number = RISK.v.distress_radius_mi, windowDays: number = RISK.v.distress_window_days): { n: number; distressed: number } {
  const g = gridFor(s, radiusMi);
  // the query's bounding box first (cheap), the distance only for rows inside it
  const dLat = latHalfDeg(radiusMi), dLon = lonHalfDeg(lat, radiusMi);
  const { rows, offsets } = g.grid;
  let n = 0, distressed = 0;
  forEachCellNear(g.grid, g.cellDeg, lat, lon, radiusMi, (c) => {
    const end = firstAfter(s, rows, offsets[c], offsets[c + 1], asOfDay);
    for (let p = firstAfter(s, rows, offsets[c], offsets[c + 1], asOfDay - windowDays); p < end; p++) {
      const i = rows[p];
      if (Math.abs(s.lat[i] - lat) > dLat || Math.abs(s.lon[i] - lon) > dLon) continue;
      if (haversineMi(lat, lon, s.lat[i], s.lon[i]) > radiusMi) continue;
      n++;
      if (s.condition[i] === CONDITION_CODE.distressed) distressed++;
    }
  });
  return { n, distressed };
}
