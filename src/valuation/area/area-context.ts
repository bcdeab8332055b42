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
import { F64Scratch } from '../../reference/f64-sort.js';
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

export function buildAreaIndex(sales: SalesColumns, timeFactor: TimeFactor | null = null): AreaIndex {
  const arms = armsLengthMask(sales);
  const cellDeg = latHalfDeg(AREA_CONTEXT.v.neighbor_radius_mi);
  const inPool = (i: number): boolean => arms[i] === 1 && (isReno(sales.condition[i]) || isDated(sales.condition[i]));
  const lists = new Map<number, number[]>();
  for (let i = 0; i < sales.length; i++) {
    const t = sales.tractIdx[i];
    if (!inPool(i) || t === TRACT_NONE) continue;
    const key = tractPoolKey(t, sales.ptype[i]);
    const list = lists.get(key);
    if (list) list.push(i);
    else lists.set(key, [i]);
  }
  const byTract = new Map<number, TractRows>();
  for (const [t, list] of lists) {
    list.sort((a, b) => sales.saleDay[a] - sales.saleDay[b] || a - b);
    byTract.set(t, poolColumns(sales, list));
  }
  const byCell = new Map<number, CellRows>();
  const types = new Set<number>();
  for (let i = 0; i < sales.length; i++) if (inPool(i)) types.add(sales.ptype[i]);
  for (const ptype of types) {
    const grid = buildPointGrid(sales.length, (i) => (inPool(i) && sales.ptype[i] === ptype ? cellKeyOf(sales.lat[i], sales.lon[i], cellDeg) : NaN));
    for (let c = 0; c + 1 < grid.offsets.length; c++) {
      grid.rows.subarray(grid.offsets[c], grid.offsets[c + 1]).sort((a, b) => sales.saleDay[a] - sales.saleDay[b] || a - b);
    }
    byCell.set(ptype, { grid, cols: poolColumns(sales, grid.rows), lat: Float64Array.from(grid.rows, (i) => sales.lat[i]), lon: Float64Array.from(grid.rows, (i) => sales.lon[i]) });
  }
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
  return cells ? nearbyPool(cells, ix, s, from) : { cols: poolColumns(ix.sales, []), reno: [], dated: [], scope: `within ${AREA_CONTEXT.v.neighbor_radius_mi} mi` };
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
