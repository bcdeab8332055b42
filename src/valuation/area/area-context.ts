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
 * The pool rows of one property type in a point grid, each cell's rows in (sale_day, row) order with their days
 * beside them (`days[k]` is the day of `grid.rows[k]`): a radius pool reads only its lookback window of each cell.
 */
export type CellRows = { grid: PointGrid; days: Int32Array };

/** A tract's pool rows in (sale_day, row) order with their days, so a lookback window is two binary searches. */
export type TractRows = { rows: Int32Array; days: Int32Array };

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
    byTract.set(t, { rows: Int32Array.from(list), days: Int32Array.from(list, (i) => sales.saleDay[i]) });
  }
  const byCell = new Map<number, CellRows>();
  const types = new Set<number>();
  for (let i = 0; i < sales.length; i++) if (inPool(i)) types.add(sales.ptype[i]);
  for (const ptype of types) {
    const grid = buildPointGrid(sales.length, (i) => (inPool(i) && sales.ptype[i] === ptype ? cellKeyOf(sales.lat[i], sales.lon[i], cellDeg) : NaN));
    for (let c = 0; c + 1 < grid.offsets.length; c++) {
      grid.rows.subarray(grid.offsets[c], grid.offsets[c + 1]).sort((a, b) => sales.saleDay[a] - sales.saleDay[b] || a - b);
    }
    byCell.set(ptype, { grid, days: Int32Array.from(grid.rows, (i) => sales.saleDay[i]) });
  }
  const pairs = findFlipPairs(sales, timeFactor);
  return { sales, byTract, byCell, cellDeg, pairs, pairIndex: indexFlipPairs(pairs, AREA_CONTEXT.v.neighbor_radius_mi), timeFactor };
}

type Pool = { reno: number[]; dated: number[]; scope: string };

/** Scratch of summarize: the pool's adjusted values (rewritten by every call; nothing keeps it). */
const SUMMARY_SCRATCH = new F64Scratch();

/**
 * Rows of the subject's type within neighbor_radius_mi of it passing `keep`, sold in [from, asOfDay), in cell order
 * (each cell's in day order: a pool's order does not matter, summarize takes order statistics).
 */
function nearbyRows(ix: AreaIndex, s: AreaSubject, from: number, keep: (i: number) => boolean): number[] {
  const c = ix.sales;
  const r = AREA_CONTEXT.v.neighbor_radius_mi;
  const out: number[] = [];
  const cells = ix.byCell.get(s.ptype);
  if (!cells) return out;
  const { grid, days } = cells;
  const { rows, offsets } = grid;
  const { lat, lon } = s;
  const box = haversineSkipBox(lat, r);
  forEachCellNear(grid, ix.cellDeg, lat, lon, r, (cell) => {
    // the window's rows, the cheap column screen, then the distance only for rows it keeps inside the skip box
    for (let k = lowerBound(days, from, offsets[cell], offsets[cell + 1]); k < offsets[cell + 1] && days[k] < s.asOfDay; k++) {
      const i = rows[k];
      if (!keep(i) || Math.abs(c.lat[i] - lat) > box.dLat || Math.abs(c.lon[i] - lon) > box.dLon) continue;
      if (haversineMi(lat, lon, c.lat[i], c.lon[i]) <= r) out.push(i);
    }
  });
  return out;
}

/** Arms-length sales of the subject's type and county in the lookback, in its tract, else within neighbor_radius_mi. */
function pool(ix: AreaIndex, s: AreaSubject): Pool {
  const c = ix.sales;
  const from = s.asOfDay - AREA_CONTEXT.v.lookback_days;
  const keep = (i: number) => c.ptype[i] === s.ptype && c.county[i] === s.county && c.saleDay[i] >= from && c.saleDay[i] < s.asOfDay && (s.excludeParcelIdx == null || c.parcelIdx[i] !== s.excludeParcelIdx);
  const split = (rows: ArrayLike<number>, begin: number, end: number, scope: string): Pool => {
    const p: Pool = { reno: [], dated: [], scope };
    for (let k = begin; k < end; k++) {
      const i = rows[k];
      if (keep(i)) (isReno(c.condition[i]) ? p.reno : p.dated).push(i);
    }
    return p;
  };
  const tr = s.tractIdx !== null && s.tractIdx !== TRACT_NONE ? ix.byTract.get(tractPoolKey(s.tractIdx, s.ptype)) : undefined;
  if (tr) {
    // Only the lookback window's rows can pass `keep` (which still checks every condition); the order of a pool does
    // not matter (summarize sorts its values).
    const tract = split(tr.rows, lowerBound(tr.days, from), lowerBound(tr.days, s.asOfDay), 'tract');
    if (tract.reno.length >= AREA_CONTEXT.v.min_sales) return tract;
  }
  const near = nearbyRows(ix, s, from, keep);
  return split(near, 0, near.length, `within ${AREA_CONTEXT.v.neighbor_radius_mi} mi`);
}

/** Median and quartiles (type 7) of time-adjusted $/sf × subject sqft, or of time-adjusted price when sqft is unknown. */
function summarize(ix: AreaIndex, rows: number[], s: AreaSubject): { mid: number; lo: number; hi: number; perSqft: boolean } | null {
  const c = ix.sales;
  const perSqft = s.sqft !== null && s.sqft > 0;
  const vals = SUMMARY_SCRATCH.take(rows.length);
  const factor = factorReader(ix.timeFactor, s.county, s.asOfDay, AREA_CONTEXT.v.lookback_days);
  let n = 0;
  for (const i of rows) {
    const adj = c.priceUsd[i] * factor(c.county[i], c.saleDay[i]);
    if (!perSqft) vals[n++] = adj;
    else if (c.sqft[i] > 0) vals[n++] = (adj / c.sqft[i]) * (s.sqft as number);
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
  const reno = summarize(ix, p.reno, s);
  if (reno) {
    const what = reno.perSqft ? `median ${idx} $/sf × ${s.sqft} sqft` : `median ${idx} price`;
    return { valueUsd: reno.mid, lowUsd: reno.lo, highUsd: reno.hi, confidence: VALUATION_DISPLAY.v.area_context_confidence_max, premium, basis: `${what} of ${p.reno.length} renovated/new sales (${p.scope}, ${AREA_CONTEXT.v.lookback_days} d)` };
  }
  const dated = summarize(ix, p.dated, s);
  if (!dated || !prem) return null;
  const up = 1 + prem.value;
  const what = dated.perSqft ? `median ${idx} $/sf × ${s.sqft} sqft` : `median ${idx} price`;
  return { valueUsd: dated.mid * up, lowUsd: dated.lo * up, highUsd: dated.hi * up, confidence: VALUATION_DISPLAY.v.area_context_confidence_max, premium, basis: `${what} of ${p.dated.length} dated/distressed sales (${p.scope}) × (1 + flip premium ${prem.value.toFixed(3)}, ${prem.n_pairs} pairs)` };
}

/** The contract object (label, method) for an evidence record, unrounded; the ladder rounds for display. */
export function areaContextFromEvidence(e: AreaContextEvidence): AreaContext {
  return { value: e.valueUsd, label: AREA_CONTEXT_LABEL, low: e.lowUsd, high: e.highUsd, confidence: e.confidence, method: AREA_CONTEXT_METHOD, premium: e.premium, basis: e.basis };
}
