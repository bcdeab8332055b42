// Same-PIN flip pairs area-wide (a dated/distressed sale, then a renovated/new resale within the Tier-1
// flip_window_days) and the area renovation premium shrunk toward the county's: {value, n_pairs, shrunk_from}.
import { AREA_CONTEXT } from '../../registry/groups/area.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { deedClassTable } from '../../kernel/params.js';
import { haversineMi, haversineSkipBox } from '../../reference/geo.js';
import { CONDITION_CODE } from '../../store/columns.js';
import { ARMS_LENGTH, saleScreenReason, type SalesColumns } from '../../store/sales-columns.js';
import { F64Scratch } from '../../reference/f64-sort.js';
import { median, medianSorted } from '../../reference/stats.js';
import { medianRanks, rankedPrefix } from '../../reference/order-stats.js';
import { buildPointGrid, cellKeyOf, forEachCellNear, latHalfDeg, type PointGrid } from '../point-grid.js';

/** Price-level factor carrying a sale of `saleDay` to `toDay` in `county` (a time index); 1 = unindexed. */
export type TimeFactor = (county: number, saleDay: number, toDay: number) => number;

export type FlipPair = { county: number; lat: number; lon: number; day1: number; day2: number; upliftLog: number };

export type Premium = { value: number; n_pairs: number; shrunk_from: number | null };

/**
 * Pairs of consecutive sales of one parcel: leg 1 dated/distressed, leg 2 renovated/new, ≤ flip_window_days apart,
 * both passing the per-sale arms-length screens (saleScreenReason: deed, price floor, single parcel); the repeat-sale
 * screens are NOT applied: a quick resale is exactly the renovation signal.
 * upliftLog = ln(p2 / (p1 × time factor leg1→leg2)).
 */
export function findFlipPairs(c: SalesColumns, tf: TimeFactor | null): FlipPair[] {
  const deed = deedClassTable();
  const ok = (i: number) => saleScreenReason(c, i, deed) === ARMS_LENGTH;
  const order = Array.from({ length: c.length }, (_, i) => i).sort((a, b) => c.parcelIdx[a] - c.parcelIdx[b] || c.saleDay[a] - c.saleDay[b] || a - b);
  const pairs: FlipPair[] = [];
  for (let k = 1; k < order.length; k++) {
    const a = order[k - 1], b = order[k];
    if (c.parcelIdx[a] !== c.parcelIdx[b] || !ok(a) || !ok(b)) continue;
    const gap = c.saleDay[b] - c.saleDay[a];
    const c1 = c.condition[a], c2 = c.condition[b];
    if (gap <= 0 || gap > TIER1.v.flip_window_days) continue;
    if (!(c1 === CONDITION_CODE.distressed || c1 === CONDITION_CODE.dated) || !(c2 === CONDITION_CODE.renovated || c2 === CONDITION_CODE.new)) continue;
    const f = tf ? tf(c.county[a], c.saleDay[a], c.saleDay[b]) : 1;
    pairs.push({ county: c.county[b], lat: c.lat[b], lon: c.lon[b], day1: c.saleDay[a], day2: c.saleDay[b], upliftLog: Math.log(c.priceUsd[b] / (c.priceUsd[a] * f)) });
  }
  return pairs;
}

/**
 * Area premium for a subject: pairs completed before asOfDay within the lookback; area = those within radiusMi.
 * value = exp(w·m_area + (1−w)·m_county) − 1 with m the median log uplift and w = n/(n + premium_shrink_k);
 * shrunk_from = exp(m_area) − 1 (the unshrunk area premium), null when the area has no pair. Null without any county pair.
 */
export function premiumFor(pairs: readonly FlipPair[], s: { lat: number; lon: number; county: number; asOfDay: number }, radiusMi: number): Premium | null {
  const from = s.asOfDay - AREA_CONTEXT.v.lookback_days;
  const county: number[] = [], area: number[] = [];
  for (const p of pairs) {
    if (p.county !== s.county || p.day2 >= s.asOfDay || p.day2 < from) continue;
    county.push(p.upliftLog);
    if (haversineMi(s.lat, s.lon, p.lat, p.lon) <= radiusMi) area.push(p.upliftLog);
  }
  if (county.length === 0) return null;
  const mCounty = median(county);
  if (area.length === 0) return { value: Math.exp(mCounty) - 1, n_pairs: 0, shrunk_from: null };
  const mArea = median(area);
  const w = area.length / (area.length + AREA_CONTEXT.v.premium_shrink_k);
  return { value: Math.exp(w * mArea + (1 - w) * mCounty) - 1, n_pairs: area.length, shrunk_from: Math.exp(mArea) - 1 };
}

/**
 * The flip pairs indexed once per snapshot (premiumFor scans every pair per subject): per county the pairs sorted
 * by day2 (the county median is a contiguous day2 window, memoized per window since a run shares one as-of day), and
 * a point grid of the pairs (rows = indices into `pairs`) with cells of side radiusMi, read under the radius's box.
 */
export type PairIndex = {
  radiusMi: number;
  cellDeg: number;
  pairs: readonly FlipPair[];
  byCounty: Map<number, { day2: Int32Array; upliftLog: Float64Array }>;
  byCell: PointGrid;
  /** The pairs' fields in byCell.rows order, each cell's pairs by (day2, index): a lookback window is a binary search per cell. */
  inCell: { day2: Int32Array; county: Int32Array; lat: Float64Array; lon: Float64Array; upliftLog: Float64Array };
  countyMedianMemo: Map<string, number | null>;
};

/** Memo entries kept before the county-median memo is reset (distinct as-of days; a run uses one or a few). */
const COUNTY_MEMO_MAX = 4096;

export function indexFlipPairs(pairs: readonly FlipPair[], radiusMi: number): PairIndex {
  const cellDeg = latHalfDeg(radiusMi);
  const byCell = buildPointGrid(pairs.length, (i) => cellKeyOf(pairs[i].lat, pairs[i].lon, cellDeg));
  const counties = new Map<number, FlipPair[]>();
  for (const p of pairs) (counties.get(p.county) ?? counties.set(p.county, []).get(p.county)!).push(p);
  const byCounty = new Map<number, { day2: Int32Array; upliftLog: Float64Array }>();
  for (const [county, list] of counties) {
    const sorted = [...list].sort((a, b) => a.day2 - b.day2);
    byCounty.set(county, { day2: Int32Array.from(sorted, (p) => p.day2), upliftLog: Float64Array.from(sorted, (p) => p.upliftLog) });
  }
  const { rows, offsets } = byCell;
  for (let c = 0; c + 1 < offsets.length; c++) {
    const seg = rows.subarray(offsets[c], offsets[c + 1]);
    if (seg.length > 1) seg.sort((a, b) => pairs[a].day2 - pairs[b].day2 || a - b);
  }
  const inCell = {
    day2: Int32Array.from(rows, (i) => pairs[i].day2), county: Int32Array.from(rows, (i) => pairs[i].county),
    lat: Float64Array.from(rows, (i) => pairs[i].lat), lon: Float64Array.from(rows, (i) => pairs[i].lon), upliftLog: Float64Array.from(rows, (i) => pairs[i].upliftLog),
  };
  return { radiusMi, cellDeg, pairs, byCounty, byCell, inCell, countyMedianMemo: new Map() };
}

/** First index i in [lo, hi) with xs[i] >= v (xs ascending there), else hi. */
export function lowerBound(xs: Int32Array, v: number, lo = 0, hi = xs.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function countyMedian(ix: PairIndex, county: number, from: number, asOfDay: number): number | null {
  const key = `${county}:${from}:${asOfDay}`;
  const hit = ix.countyMedianMemo.get(key);
  if (hit !== undefined) return hit;
  const c = ix.byCounty.get(county);
  const lo = c ? lowerBound(c.day2, from) : 0, hi = c ? lowerBound(c.day2, asOfDay) : 0;
  const m = c && hi > lo ? median(c.upliftLog.subarray(lo, hi)) : null;
  if (ix.countyMedianMemo.size >= COUNTY_MEMO_MAX) ix.countyMedianMemo.clear();
  ix.countyMedianMemo.set(key, m);
  return m;
}

/** premiumFor over the index: the same pairs, the same medians and formula, so the same result (tested). */
export function premiumForIndexed(ix: PairIndex, s: { lat: number; lon: number; county: number; asOfDay: number }): Premium | null {
  const from = s.asOfDay - AREA_CONTEXT.v.lookback_days;
  const mCounty = countyMedian(ix, s.county, from, s.asOfDay);
  if (mCounty === null) return null;
  let area = AREA_SCRATCH.take(64);
  let n = 0;
  const { offsets } = ix.byCell;
  const p = ix.inCell;
  // The cells' box holds ~3× the circle's area: pairs outside the skip box are out of the radius without a haversine.
  const box = haversineSkipBox(s.lat, ix.radiusMi);
  // A cell's pairs in the window are contiguous (day2 order); the order the uplifts are gathered in does not matter
  // (their median sorts them).
  forEachCellNear(ix.byCell, ix.cellDeg, s.lat, s.lon, ix.radiusMi, (c) => {
    const end = offsets[c + 1];
    for (let k = lowerBound(p.day2, from, offsets[c], end); k < end && p.day2[k] < s.asOfDay; k++) {
      if (p.county[k] !== s.county) continue;
      if (Math.abs(p.lat[k] - s.lat) > box.dLat || Math.abs(p.lon[k] - s.lon) > box.dLon) continue;
      if (haversineMi(s.lat, s.lon, p.lat[k], p.lon[k]) > ix.radiusMi) continue;
      if (n === area.length) area = grow(area, n);
      area[n++] = p.upliftLog[k];
    }
  });
  if (n === 0) return { value: Math.exp(mCounty) - 1, n_pairs: 0, shrunk_from: null };
  const mArea = medianSorted(rankedPrefix(area, n, medianRanks(n)));
  const w = n / (n + AREA_CONTEXT.v.premium_shrink_k);
  return { value: Math.exp(w * mArea + (1 - w) * mCounty) - 1, n_pairs: n, shrunk_from: Math.exp(mArea) - 1 };
}

/** Scratch of premiumForIndexed: the area's log uplifts (rewritten by every call). */
const AREA_SCRATCH = new F64Scratch();

function grow(a: Float64Array, n: number): Float64Array {
  const b = AREA_SCRATCH.take(n * 2);
  b.set(a.subarray(0, n));
  return b;
}
