// The appraisal ceiling's max_reno_sale_24mo: the highest market (arms-length) renovated or new sale of the
// subject's property type and county within appraisal_ceiling_radius_mi over the last appraisal_ceiling_window_days
// before the as-of day, its own parcel left out. Every such sale counts. It was read from a Tier-1 kernel query at
// that radius and window, which keeps only the 12 best qualified comps beside its rejections, so in a dense area the
// highest sale was missed whenever it ranked below the 12 (and the query built and decoded hundreds of rejection
// records for one maximum). Here it is a scan of a grid of the snapshot's market renovated/new sales per property
// type, built once per sales snapshot, each cell's sales in day order so only the window's are read; no kernel call.
import { haversineFrom } from '../../reference/geo.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { CONDITION_CODE } from '../../store/columns.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import { buildPointGrid, cellKeyOf, forEachCellNear, latHalfDeg, type PointGrid } from '../point-grid.js';
import type { ParcelSalesIndex } from './flip-pairs.js';

/**
 * A grid of one property type's market renovated/new sales, its entries laid out cell by cell and by sale day within
 * a cell (so a window is one binary search and a run), each field the scan reads in its own array in that order (a
 * cell's run reads memory in sequence, not scattered rows of the 1.1 M-row columns).
 */
type CeilingGrid = { grid: PointGrid; cellDeg: number; day: Int32Array; price: Float64Array; lat: Float64Array; lon: Float64Array; county: Uint8Array; parcel: Int32Array };

/** Grids by property type code, one set per sales snapshot (its columns object), built on first use. */
const grids = new WeakMap<SalesColumns, Map<number, CeilingGrid>>();

function buildGrid(sales: SalesColumns, arms: Uint8Array, ptype: number): CeilingGrid {
  const picked: number[] = [];
  for (let i = 0; i < sales.length; i++) {
    const c = sales.condition[i];
    if (arms[i] === 1 && sales.ptype[i] === ptype && (c === CONDITION_CODE.renovated || c === CONDITION_CODE.new)) picked.push(i);
  }
  picked.sort((a, b) => sales.saleDay[a] - sales.saleDay[b] || a - b);
  // Cells as tall as the radius: a query reads at most 3 rows of them.
  const cellDeg = latHalfDeg(TIER1.v.appraisal_ceiling_radius_mi);
  const grid = buildPointGrid(picked.length, (j) => cellKeyOf(sales.lat[picked[j]], sales.lon[picked[j]], cellDeg));
  const at = (k: number) => picked[grid.rows[k]]; // the sales row of the grid's k-th entry
  const n = grid.rows.length;
  return {
    grid, cellDeg,
    day: Int32Array.from({ length: n }, (_, k) => sales.saleDay[at(k)]),
    price: Float64Array.from({ length: n }, (_, k) => sales.priceUsd[at(k)]),
    lat: Float64Array.from({ length: n }, (_, k) => sales.lat[at(k)]),
    lon: Float64Array.from({ length: n }, (_, k) => sales.lon[at(k)]),
    county: Uint8Array.from({ length: n }, (_, k) => sales.county[at(k)]),
    parcel: Int32Array.from({ length: n }, (_, k) => sales.parcelIdx[at(k)]),
  };
}

function gridOf(sales: SalesColumns, arms: Uint8Array, ptype: number): CeilingGrid {
  let byType = grids.get(sales);
  if (!byType) grids.set(sales, (byType = new Map()));
  let g = byType.get(ptype);
  if (!g) byType.set(ptype, (g = buildGrid(sales, arms, ptype)));
  return g;
}

/** First entry in [lo, hi) sold on or after `firstDay`. */
function firstOnOrAfter(day: Int32Array, lo: number, hi: number, firstDay: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (day[mid] < firstDay) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The subject as the ceiling reads it. */
export type CeilingSubject = { lat: number; lon: number; ptype: number; county: number; asOfDay: number; excludeParcelIdx?: number | null };

/** The highest such sale's price, or null when there is none. */
export function maxRenoSale24mo(deps: { sales: SalesColumns; parcelSales: ParcelSalesIndex }, s: CeilingSubject): number | null {
  const g = gridOf(deps.sales, deps.parcelSales.arms, s.ptype);
  const { offsets } = g.grid;
  const radius = TIER1.v.appraisal_ceiling_radius_mi;
  const firstDay = s.asOfDay - TIER1.v.appraisal_ceiling_window_days;
  const exclude = s.excludeParcelIdx ?? -1;
  const dist = haversineFrom(s.lat, s.lon);
  let max: number | null = null;
  forEachCellNear(g.grid, g.cellDeg, s.lat, s.lon, radius, (cell) => {
    for (let k = firstOnOrAfter(g.day, offsets[cell], offsets[cell + 1], firstDay); k < offsets[cell + 1] && g.day[k] < s.asOfDay; k++) {
      const p = g.price[k];
      if ((max === null || p > max) && g.county[k] === s.county && g.parcel[k] !== exclude && dist(g.lat[k], g.lon[k]) <= radius) max = p;
    }
  });
  return max;
}
