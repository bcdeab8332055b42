// The subject's own earlier sale as Tier-1 evidence (issue 14): comparable sales say what a typical house like the
// subject sells for, not how this house differs from its neighbours in what no characteristic records (its
// unobserved quality); its own earlier arms-length sale, carried to the as-of date by the county index, does. The
// gap g = ln(carried price / comps value) mixes that quality with the earlier sale's noise and any change of
// condition since, so the value moves by only a fitted fraction of it: value = comps value × exp(w · clamp(g)),
// w fitted per condition group of the earlier sale on the calibration half of the out-of-time backtest
// (fitPriorSaleWeights; stored on the calibration table, so serving uses only what the champion was measured with; a
// table without weights moves nothing). Measured before building it (default corpus, generator 3.1.0, test half of
// the backtest): Tier-1 MdAPE 11.0% -> 9.2%, PPE10 0.465 -> 0.532, COD 16.3 -> 13.2, PRD 1.045 -> 1.031, PRB -0.060
// -> -0.046; 61% of the test sales had an earlier sale.
//
// The as-is value reads the same evidence against the as-is median, with its own weights (priorSaleAsIs), fitted on
// every sale of the as-is backtest's calibration half (as-is is the value of a house as it stands, whatever its
// condition; no kind, true or inferred, picks the fitted sales). Measured before building it (generator 3.2.0,
// seed 1, test half, as-is sales by true condition): as-is MdAPE 19.9% -> 12.8%, COD 46.2 -> 30.7, PRD 1.32 -> 1.19.
import { PRIOR_SALE_GROUPS } from '../../contracts/arv.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { CONDITION_CODE } from '../../store/columns.js';
import { isoOfDay, monthOfDay } from '../../store/days.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import type { TimeIndexSeries } from '../../kernel/types.js';
import type { AsIsResult } from './as-is.js';
import { levelLookup } from './time-index.js';
import type { ParcelSalesIndex } from './flip-pairs.js';

/** What finding a parcel's earlier sale reads: the sales, their per-parcel index and the time index in force. */
export type PriorSaleDeps = { sales: SalesColumns; parcelSales: ParcelSalesIndex; timeIndex?: { series: readonly TimeIndexSeries[] } | null };

export type PriorSaleGroup = (typeof PRIOR_SALE_GROUPS)[number];

/** The weights a calibration fitted (stored on its table); a group absent or 0 moves nothing. */
export type PriorSaleFit = { weights: Record<PriorSaleGroup, number>; n: Record<PriorSaleGroup, number> };

/** What Tier 1 found of the subject's own history (before any weight). */
export type PriorSaleEvidence = {
  row: number;
  saleDay: number;
  priceUsd: number;
  group: PriorSaleGroup;
  /** County index level at the as-of month over the level at the sale's month (no comp caps: a carry over years). */
  indexFactor: number;
  carriedUsd: number;
  /** ln(carriedUsd / comps value), clamped to ±prior_sale_max_log_gap. */
  logGap: number;
};

const groupOf = (condition: number): PriorSaleGroup => (condition === CONDITION_CODE.renovated || condition === CONDITION_CODE.new ? 'renovated' : 'other');

/**
 * The parcel's latest arms-length sale at least prior_sale_min_gap_days before the as-of day (a resale within months
 * is a flip leg or a correction, not the same house's market level), or -1.
 */
export function priorSaleRow(c: SalesColumns, idx: ParcelSalesIndex, arms: Uint8Array, parcel: number, asOfDay: number): number {
  if (parcel < 0 || parcel + 1 >= idx.offsets.length) return -1;
  const last = asOfDay - TIER1.v.prior_sale_min_gap_days;
  let found = -1;
  for (let k = idx.offsets[parcel]; k < idx.offsets[parcel + 1]; k++) {
    const r = idx.rows[k]; // day order
    if (c.saleDay[r] > last) break;
    if (arms[r] === 1) found = r;
  }
  return found;
}

/** The earlier sale's evidence against a comps value, or null (no such sale, no index for its county, no value). */
export function priorSaleEvidence(
  c: SalesColumns, idx: ParcelSalesIndex, arms: Uint8Array, series: readonly TimeIndexSeries[],
  s: { excludeParcelIdx?: number | null; county: number; asOfDay: number }, compsValueUsd: number | null,
): PriorSaleEvidence | null {
  if (compsValueUsd === null || !(compsValueUsd > 0) || s.excludeParcelIdx === null || s.excludeParcelIdx === undefined) return null;
  const row = priorSaleRow(c, idx, arms, s.excludeParcelIdx, s.asOfDay);
  const sr = row < 0 ? undefined : series.find((x) => x.county === s.county);
  if (row < 0 || !sr) return null;
  const level = levelLookup(sr);
  const indexFactor = level(monthOfDay(s.asOfDay - 1)) / level(monthOfDay(c.saleDay[row]));
  const carriedUsd = c.priceUsd[row] * indexFactor;
  if (!Number.isFinite(carriedUsd) || carriedUsd <= 0) return null;
  const cap = TIER1.v.prior_sale_max_log_gap;
  const logGap = Math.max(-cap, Math.min(cap, Math.log(carriedUsd / compsValueUsd)));
  return { row, saleDay: c.saleDay[row], priceUsd: c.priceUsd[row], group: groupOf(c.condition[row]), indexFactor, carriedUsd, logGap };
}

/** The factor a fit applies to the comps value (1 without evidence or weights). */
export function priorSaleFactor(ev: Pick<PriorSaleEvidence, 'group' | 'logGap'> | null | undefined, fit: PriorSaleFit | null | undefined): number {
  const w = ev && fit ? (fit.weights[ev.group] ?? 0) : 0;
  return w === 0 ? 1 : Math.exp(w * ev!.logGap);
}

/** One backtest sale as the fit reads it: ln(price / comps value) against the gap. */
export type PriorSalePoint = { group: PriorSaleGroup; logGap: number; logRatio: number };

/**
 * Weights by least squares through the origin of ln(price / comps value) on the gap, per group, bounded to [0, 1]
 * (a fraction of the gap: never past the earlier sale, never away from it); a group with fewer than
 * prior_sale_min_fit_n sales gets 0.
 */
export function fitPriorSaleWeights(points: readonly PriorSalePoint[]): PriorSaleFit {
  const weights = { renovated: 0, other: 0 }, n = { renovated: 0, other: 0 };
  for (const g of PRIOR_SALE_GROUPS) {
    let sxy = 0, sxx = 0;
    for (const p of points) {
      if (p.group !== g || !Number.isFinite(p.logRatio)) continue;
      sxy += p.logGap * p.logRatio;
      sxx += p.logGap * p.logGap;
      n[g]++;
    }
    weights[g] = n[g] >= TIER1.v.prior_sale_min_fit_n && sxx > 0 ? Math.max(0, Math.min(1, sxy / sxx)) : 0;
  }
  return { weights, n };
}

/** The artifact's view of the adjustment (arv.prior_sale). */
export function priorSaleView(ev: PriorSaleEvidence, fit: PriorSaleFit | null | undefined, compsValueUsd: number) {
  const weight = fit ? (fit.weights[ev.group] ?? 0) : 0;
  return {
    sale_date: isoOfDay(ev.saleDay), price: ev.priceUsd, condition_group: ev.group, index_factor: ev.indexFactor, carried_value: ev.carriedUsd,
    comps_value: compsValueUsd, log_gap: ev.logGap, weight, factor: priorSaleFactor(ev, fit),
  };
}

/** The earlier sale's evidence against a value of the subject, with what a valuation or the backtest already holds. */
export function findPriorSale(deps: PriorSaleDeps, s: { excludeParcelIdx?: number | null; county: number; asOfDay: number }, valueUsd: number | null): PriorSaleEvidence | null {
  return deps.timeIndex ? priorSaleEvidence(deps.sales, deps.parcelSales, deps.parcelSales.arms, deps.timeIndex.series, s, valueUsd) : null;
}

/**
 * An as-is result moved by the as-is weights: value, low and high × the factor, the earlier sale shown on it (weight
 * 0 and factor 1 under a table without as-is weights). Unchanged without an as-is value or an earlier sale.
 */
export function asIsWithPriorSale(res: AsIsResult, ev: PriorSaleEvidence | null, fit: PriorSaleFit | null | undefined): AsIsResult {
  const a = res.asIs;
  if (!a || a.value === null || !ev) return res;
  const f = priorSaleFactor(ev, fit);
  const moved = (x: number | null) => (x === null ? null : x * f);
  return { ...res, asIs: { ...a, value: moved(a.value), low: moved(a.low), high: moved(a.high), prior_sale: priorSaleView(ev, fit, a.value) } };
}
