// The naive comps estimator of issue 14, the baseline the model must beat: the median price per square foot of the 8
// nearest arms-length sales of the same property type within 1 mile, sold strictly before the subject's sale day and at
// most naive_lookback_days before it (the issue names no window; see the registry entry for why one year), with
// living area within ±20% and bedrooms within ±1 of the subject's, times the subject's living area. No time
// adjustment, no condition stratum, no trimming: that is what makes it naive. The subject's own parcel is excluded, as
// in the model. Hand-written: it is our baseline's definition. Spatial lookup: a grid of quarter-radius cells, each
// cell's sales in sale-day order, searched in rings around the subject's cell until the 8 nearest are certain (every
// sale within the rings' guaranteed radius has been seen) or the rings cover the radius.
import { haversineMi } from '../../reference/geo.js';
import { BACKTEST_REPORT } from '../../registry/groups/accuracy-report.js';
import { median } from '../../reference/stats.js';
import type { SalesColumns } from '../../store/sales-columns.js';

/** Degrees of latitude per mile (Earth radius 3958.8 mi, as haversineMi). */
const LAT_DEG_PER_MI = 180 / (Math.PI * 3958.8);
/** Cells per radius: smaller cells let dense areas stop after a ring or two. */
const CELLS_PER_RADIUS = 4;
/** Cook and Lake lie between these latitudes; a cell's longitude width is set at the northern one so it is never narrower than its height in miles. */
const NORTH_LAT = 42.6;

export type NaiveEstimator = { estimate: (row: number) => number | null };

const cellKey = (i: number, j: number): number => i * 1_048_576 + j;

/** Builds the grid over the arms-length sales (`arms[i] === 1`) with a known living area and a positive price. */
/** `lookbackDays`: only comps sold at most this many days before the subject (backtest_report.naive_lookback_days). */
export function naiveCompsEstimator(c: SalesColumns, arms: Uint8Array, lookbackDays: number = BACKTEST_REPORT.v.naive_lookback_days): NaiveEstimator {
  const g = BACKTEST_REPORT.v;
  const cellMi = g.naive_radius_mi / CELLS_PER_RADIUS;
  const cellLat = cellMi * LAT_DEG_PER_MI;
  const cellLon = cellLat / Math.cos((NORTH_LAT * Math.PI) / 180);
  const lists = new Map<number, number[]>();
  for (let i = 0; i < c.length; i++) {
    if (arms[i] !== 1 || !(c.sqft[i] > 0) || !(c.priceUsd[i] > 0) || !Number.isFinite(c.lat[i]) || !Number.isFinite(c.lon[i])) continue;
    const k = cellKey(Math.floor(c.lat[i] / cellLat), Math.floor(c.lon[i] / cellLon));
    let list = lists.get(k);
    if (!list) lists.set(k, (list = []));
    list.push(i);
  }
  const cells = new Map<number, Int32Array>();
  for (const [k, list] of lists) cells.set(k, Int32Array.from(list.sort((a, b) => c.saleDay[a] - c.saleDay[b] || a - b)));

  const bestD = new Float64Array(g.naive_k);
  const bestP = new Float64Array(g.naive_k);

  function estimate(row: number): number | null {
    const sqft = c.sqft[row];
    if (!(sqft > 0) || !Number.isFinite(c.lat[row]) || !Number.isFinite(c.lon[row])) return null;
    const day = c.saleDay[row];
    const beds = c.beds[row];
    const ci = Math.floor(c.lat[row] / cellLat);
    const cj = Math.floor(c.lon[row] / cellLon);
    let n = 0;
    const consider = (j: number): void => {
      if (c.ptype[j] !== c.ptype[row] || c.parcelIdx[j] === c.parcelIdx[row]) return;
      if (Math.abs(c.sqft[j] - sqft) > g.naive_sqft_band_frac * sqft) return;
      if (beds >= 0 && !(c.beds[j] >= 0 && Math.abs(c.beds[j] - beds) <= g.naive_beds_band)) return;
      const d = haversineMi(c.lat[row], c.lon[row], c.lat[j], c.lon[j]);
      if (d > g.naive_radius_mi || (n === g.naive_k && d >= bestD[n - 1])) return;
      // insertion into the k nearest so far (ascending distance)
      let at = n < g.naive_k ? n++ : n - 1;
      while (at > 0 && bestD[at - 1] > d) {
        bestD[at] = bestD[at - 1];
        bestP[at] = bestP[at - 1];
        at--;
      }
      bestD[at] = d;
      bestP[at] = c.priceUsd[j] / c.sqft[j];
    };
    for (let ring = 0; ring <= CELLS_PER_RADIUS; ring++) {
      for (let di = -ring; di <= ring; di++) {
        for (let dj = -ring; dj <= ring; dj++) {
          if (Math.max(Math.abs(di), Math.abs(dj)) !== ring) continue;
          const list = cells.get(cellKey(ci + di, cj + dj));
          if (!list) continue;
          for (let k = 0; k < list.length; k++) {
            if (c.saleDay[list[k]] >= day) break; // day order: the rest are not earlier
            if (day - c.saleDay[list[k]] <= lookbackDays) consider(list[k]);
          }
        }
      }
      // After ring r, every sale within r cells (r × cellMi miles) of the subject has been seen.
      if (n === g.naive_k && bestD[n - 1] <= ring * cellMi) break;
    }
    return n === 0 ? null : median(bestP.subarray(0, n)) * sqft;
  }
  return { estimate };
}
