// Area context (`nbhd_premium`): a neighborhood estimate when no Tier-1 ARV exists (and as context beside it). Never
// property-specific, never an arv value: this module only returns the evidence; valuation/ladder.ts places it.
import { AREA_CONTEXT_LABEL, AREA_CONTEXT_METHOD, type AreaContext } from '../../contracts/area-context.js';
import { AREA_CONTEXT } from '../../registry/groups/area.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';
import { haversineMi, haversineSkipBox } from '../../reference/geo.js';
import { CONDITION_CODE, TRACT_NONE } from '../../store/columns.js';
import type { AreaContextEvidence } from '../decide/ladder-evidence.js';
import { armsLengthMask, type SalesColumns } from '../../store/sales-columns.js';
import { findFlipPairs, indexFlipPairs, lowerBound, premiumForIndexed, type FlipPair, type PairIndex, type TimeFactor } from './area-premium.js';
import { buildPointGrid, cellKeyOf, forEachCellNear, latHalfDeg, type PointGrid } from '../point-grid.js';
import { quantileType7Sorted } from '../../reference/stats.js';
import { factorReader } from './area-time.js';
import { F64Scratch, sortF64Prefix } from '../../reference/f64-sort.js';
import { rankedPrefix, type7Ranks } from '../../reference/order-stats.js';

export type { TimeFactor } from './area-premium.js';

/**
 * Built once per snapshot and reused for every subject: the arms-length dated/renovated rows bucketed by tract and in
 * a point grid (cell side = the neighbor radius, read under the radius's box), and the flip pairs (with their
 * spatial/day index).
 */
export type AreaIndex = { sales: SalesColumns; /** by tractPoolKey */ byTract: Map<number, TractRows>; byCell: Map<number, CellRows>; cellDeg: number; pairs: FlipPair[]; pairIndex: PairIndex; timeFactor: TimeFactor | null };

/**
 * What a pool reads of each of its rows, copied once into the pool's own order (cell or tract, each run of rows by
 * sale day): a pool scan then reads consecutive memory instead of ~3,000 random rows of eight sales columns (a dense
 * subject's radius pool cost ~0.6 ms cold, ~0.2 ms warm). `reno`: 1 renovated/new, 0 dated/distressed.
 */
export type PoolColumns = { days: Int32Array; county: Uint8Array; parcel: Uint32Array; reno: Uint8Array; price: Float64Array; sqft: Float64Array };

/** The pool rows of one property type in a point grid, each cell's rows in (sale_day, row) order; cols and lat/lon in grid.rows order. */
export type CellRows = { grid: PointGrid; cols: PoolColumns; lat: Float64Array; lon: Float64Array };

/** A tract's pool rows in (sale_day, row) order, so a lookback window is two binary searches. */
export type TractRows = PoolColumns;

/**
 * byTract's key: a tract's pool is kept per property type (a pool only ever takes the subject's type, and a Chicago
 * tract's two years of sales of every type were scanned per subject for it).
 */
const tractPoolKey = (tractIdx: number, ptype: number): number => tractIdx * 256 + ptype;

export type AreaSubject = {
  lat: number; lon: number;
  /** tract_idx of the subject in the snapshot's tract list, or null/TRACT_NONE. */
  tractIdx: number | null;
  ptype: number; county: number; sqft: number | null; asOfDay: number;
  excludeParcelIdx?: number | null;
};

const isReno = (c: number): boolean => c === CONDITION_CODE.renovated || c === CONDITION_CODE.new;
const isDated = (c: number): boolean => c === CONDITION_CODE.distressed || c === CONDITION_CODE.dated;

/**
 * The rows with keep[row] = 1, ordered by (sale_day, row): one numeric sort of the exact keys (day − first day) × n + row
 * (a comparator sort of a million rows costs several times as much); the comparator sort when the keys would pass
 * 2^53 (a day span no snapshot has).
 */
function byDayThenRow(sales: SalesColumns, keep: Uint8Array): Int32Array {
  const n = sales.length;
  const days = sales.saleDay;
  let m = 0, lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    if (keep[i] === 0) continue;
    m++;
    if (days[i] < lo) lo = days[i];
    if (days[i] > hi) hi = days[i];
  }
  const rows = new Int32Array(m);
  for (let i = 0, k = 0; i < n; i++) if (keep[i] === 1) rows[k++] = i;
  if (m === 0 || (hi - lo + 1) * n > Number.MAX_SAFE_INTEGER) return rows.sort((a, b) => days[a] - days[b] || a - b);
  const keys = new Float64Array(m);
  for (let k = 0; k < m; k++) keys[k] = (days[rows[k]] - lo) * n + rows[k];
  sortF64Prefix(keys, m);
  for (let k = 0; k < m; k++) rows[k] = keys[k] % n;
  return rows;
}

/**
 * `order`'s rows grouped by keyOf (0 ≤ key < nKeys; a negative key leaves the row out), each group in `order`'s order
 * (a counting sort): calls `each(key, rows)` per non-empty group, ascending by key.
 */
function groupInOrder(order: Int32Array, keyOf: (i: number) => number, nKeys: number): { forEach(each: (key: number, rows: Int32Array) => void): void } {
  const start = new Uint32Array(nKeys + 1);
  const keys = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) {
    keys[k] = keyOf(order[k]);
    if (keys[k] >= 0) start[keys[k] + 1]++;
  }
  for (let g = 0; g < nKeys; g++) start[g + 1] += start[g];
  const fill = start.slice(0, nKeys);
  const rows = new Int32Array(start[nKeys]);
  for (let k = 0; k < order.length; k++) if (keys[k] >= 0) rows[fill[keys[k]]++] = order[k];
  return { forEach: (each) => { for (let g = 0; g < nKeys; g++) if (start[g + 1] > start[g]) each(g, rows.subarray(start[g], start[g + 1])); } };
}

export function buildAreaIndex(sales: SalesColumns, timeFactor: TimeFactor | null = null, arms: Uint8Array = armsLengthMask(sales)): AreaIndex {
  const cellDeg = latHalfDeg(AREA_CONTEXT.v.neighbor_radius_mi);
  // Every pool row once, in (sale_day, row) order: each tract's and each cell's rows are then in day order as they
  // are collected, with no sort per tract or per cell.
  const inPool = new Uint8Array(sales.length);
  for (let i = 0; i < sales.length; i++) inPool[i] = arms[i] === 1 && (isReno(sales.condition[i]) || isDated(sales.condition[i])) ? 1 : 0;
  const order = byDayThenRow(sales, inPool);
  const byTract = new Map<number, TractRows>();
  const tracts = groupInOrder(order, (i) => (sales.tractIdx[i] === TRACT_NONE ? -1 : tractPoolKey(sales.tractIdx[i], sales.ptype[i])), tractPoolKey(sales.tracts.length, 0));
  tracts.forEach((key, rows) => byTract.set(key, poolColumns(sales, rows)));
  const byCell = new Map<number, CellRows>();
  groupInOrder(order, (i) => sales.ptype[i], 256).forEach((ptype, rows) => {
    // The grid keeps each cell's positions ascending, i.e. in (sale_day, row) order; its rows become sales rows.
    const grid = buildPointGrid(rows.length, (k) => cellKeyOf(sales.lat[rows[k]], sales.lon[rows[k]], cellDeg));
    for (let k = 0; k < grid.rows.length; k++) grid.rows[k] = rows[grid.rows[k]];
    const lat = new Float64Array(grid.rows.length), lon = new Float64Array(grid.rows.length);
    for (let k = 0; k < grid.rows.length; k++) {
      lat[k] = sales.lat[grid.rows[k]];
      lon[k] = sales.lon[grid.rows[k]];
    }
    byCell.set(ptype, { grid, cols: poolColumns(sales, grid.rows), lat, lon });
  });
  const pairs = findFlipPairs(sales, timeFactor);
  return { sales, byTract, byCell, cellDeg, pairs, pairIndex: indexFlipPairs(pairs, AREA_CONTEXT.v.neighbor_radius_mi), timeFactor };
}

/** Positions in `cols` (not sales rows) of the pool's renovated/new and dated/distressed sales. */
type Pool = { cols: PoolColumns; reno: number[]; dated: number[]; scope: string };

function poolColumns(c: SalesColumns, rows: ArrayLike<number>): PoolColumns {
  const n = rows.length;
  const out: PoolColumns = { days: new Int32Array(n), county: new Uint8Array(n), parcel: new Uint32Array(n), reno: new Uint8Array(n), price: new Float64Array(n), sqft: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const i = rows[k];
    out.days[k] = c.saleDay[i]; out.county[k] = c.county[i]; out.parcel[k] = c.parcelIdx[i];
    out.reno[k] = isReno(c.condition[i]) ? 1 : 0; out.price[k] = c.priceUsd[i]; out.sqft[k] = c.sqft[i];
  }
  return out;
}

/** The columns of a type with no pool rows at all (read by nothing: its pool lists no positions). */
const NO_POOL_ROWS: PoolColumns = { days: new Int32Array(0), county: new Uint8Array(0), parcel: new Uint32Array(0), reno: new Uint8Array(0), price: new Float64Array(0), sqft: new Float64Array(0) };

/** Scratch of summarize: the pool's adjusted values (rewritten by every call; nothing keeps it). */
const SUMMARY_SCRATCH = new F64Scratch();

/**
 * The radius pool: positions in the cell columns of rows of the subject's type and county within neighbor_radius_mi
 * of it, sold in [from, asOfDay), not the excluded parcel; in cell order (each cell's in day order: a pool's order
 * does not matter, summarize takes order statistics).
 */
function nearbyPool(cells: CellRows, ix: AreaIndex, s: AreaSubject, from: number): Pool {
  const r = AREA_CONTEXT.v.neighbor_radius_mi;
  const { grid, cols, lat: rowLat, lon: rowLon } = cells;
  const { offsets } = grid;
  const { days } = cols;
  const { lat, lon } = s;
  const box = haversineSkipBox(lat, r);
  const p: Pool = { cols, reno: [], dated: [], scope: `within ${r} mi` };
  forEachCellNear(grid, ix.cellDeg, lat, lon, r, (cell) => {
    // the window's rows, the cheap column screen, then the distance only for rows it keeps inside the skip box
    for (let k = lowerBound(days, from, offsets[cell], offsets[cell + 1]); k < offsets[cell + 1] && days[k] < s.asOfDay; k++) {
      if (!keeps(cols, k, s) || Math.abs(rowLat[k] - lat) > box.dLat || Math.abs(rowLon[k] - lon) > box.dLon) continue;
      if (haversineMi(lat, lon, rowLat[k], rowLon[k]) <= r) (cols.reno[k] === 1 ? p.reno : p.dated).push(k);
    }
  });
  return p;
}

/** The pool screen left after the type (one pool per type) and the day window (binary searches): county, excluded parcel. */
const keeps = (cols: PoolColumns, k: number, s: AreaSubject): boolean => cols.county[k] === s.county && (s.excludeParcelIdx == null || cols.parcel[k] !== s.excludeParcelIdx);

/** Arms-length sales of the subject's type and county in the lookback, in its tract, else within neighbor_radius_mi. */
function pool(ix: AreaIndex, s: AreaSubject): Pool {
  const from = s.asOfDay - AREA_CONTEXT.v.lookback_days;
  const tr = s.tractIdx !== null && s.tractIdx !== TRACT_NONE ? ix.byTract.get(tractPoolKey(s.tractIdx, s.ptype)) : undefined;
  if (tr) {
    // Only the lookback window's rows are read; the order of a pool does not matter (summarize sorts its values).
    const tract: Pool = { cols: tr, reno: [], dated: [], scope: 'tract' };
    for (let k = lowerBound(tr.days, from), end = lowerBound(tr.days, s.asOfDay); k < end; k++) if (keeps(tr, k, s)) (tr.reno[k] === 1 ? tract.reno : tract.dated).push(k);
    if (tract.reno.length >= AREA_CONTEXT.v.min_sales) return tract;
  }
  const cells = ix.byCell.get(s.ptype);
  return cells ? nearbyPool(cells, ix, s, from) : { cols: NO_POOL_ROWS, reno: [], dated: [], scope: `within ${AREA_CONTEXT.v.neighbor_radius_mi} mi` };
}

/** Median and quartiles (type 7) of time-adjusted $/sf × subject sqft, or of time-adjusted price when sqft is unknown. */
function summarize(ix: AreaIndex, cols: PoolColumns, at: number[], s: AreaSubject): { mid: number; lo: number; hi: number; perSqft: boolean } | null {
  const perSqft = s.sqft !== null && s.sqft > 0;
  const vals = SUMMARY_SCRATCH.take(at.length);
  const factor = factorReader(ix.timeFactor, s.county, s.asOfDay, AREA_CONTEXT.v.lookback_days);
  let n = 0;
  for (const k of at) {
    const adj = cols.price[k] * factor(cols.county[k], cols.days[k]);
    if (!perSqft) vals[n++] = adj;
    else if (cols.sqft[k] > 0) vals[n++] = (adj / cols.sqft[k]) * (s.sqft as number);
  }
  if (n < AREA_CONTEXT.v.min_sales) return null;
  // The three quartiles' order statistics by selection: the values a sort of the pool would give, without sorting it.
  const sorted = rankedPrefix(vals, n, [...type7Ranks(n, 0.25), ...type7Ranks(n, 0.5), ...type7Ranks(n, 0.75)]);
  return { mid: quantileType7Sorted(sorted, 0.5), lo: quantileType7Sorted(sorted, 0.25), hi: quantileType7Sorted(sorted, 0.75), perSqft };
}

/**
 * The area estimate: median time-adjusted $/sf of renovated/new sales (tract, else within the radius) × subject sqft
 * (median price when sqft is unknown), band = their quartiles. With fewer than min_sales renovated sales: the
 * dated/distressed median × (1 + the shrunk flip premium). Null when neither has min_sales sales.
 */
export function estimateAreaContext(ix: AreaIndex, s: AreaSubject): AreaContextEvidence | null {
  const p = pool(ix, s);
  const prem = premiumForIndexed(ix.pairIndex, s);
  const premium = prem ? { value: prem.value, n_pairs: prem.n_pairs, shrunk_from: prem.shrunk_from } : null;
  const idx = ix.timeFactor ? 'time-adjusted' : 'not time-adjusted';
  const reno = summarize(ix, p.cols, p.reno, s);
  if (reno) {
    const what = reno.perSqft ? `median ${idx} $/sf × ${s.sqft} sqft` : `median ${idx} price`;
    return { valueUsd: reno.mid, lowUsd: reno.lo, highUsd: reno.hi, confidence: VALUATION_DISPLAY.v.area_context_confidence_max, premium, basis: `${what} of ${p.reno.length} renovated/new sales (${p.scope}, ${AREA_CONTEXT.v.lookback_days} d)` };
  }
  const dated = summarize(ix, p.cols, p.dated, s);
  if (!dated || !prem) return null;
  const up = 1 + prem.value;
  const what = dated.perSqft ? `median ${idx} $/sf × ${s.sqft} sqft` : `median ${idx} price`;
  return { valueUsd: dated.mid * up, lowUsd: dated.lo * up, highUsd: dated.hi * up, confidence: VALUATION_DISPLAY.v.area_context_confidence_max, premium, basis: `${what} of ${p.dated.length} dated/distressed sales (${p.scope}) × (1 + flip premium ${prem.value.toFixed(3)}, ${prem.n_pairs} pairs)` };
}

/** The contract object (label, method) for an evidence record, unrounded; the ladder rounds for display. */
export function areaContextFromEvidence(e: AreaContextEvidence): AreaContext {
  return { value: e.valueUsd, label: AREA_CONTEXT_LABEL, low: e.lowUsd, high: e.highUsd, confidence: e.confidence, method: AREA_CONTEXT_METHOD, premium: e.premium, basis: e.basis };
}
