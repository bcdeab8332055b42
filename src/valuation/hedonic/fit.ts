// fitHedonic: hedonic_v1 per segment on arms-length Cook sales before a cutoff, with an out-of-time conformal
// calibration of its interval (stage 1 fit before cutoff − holdout, scored on the holdout; stage 2 fit on all).
import { createHash } from 'node:crypto';
import type { Table } from 'apache-arrow';
import { AppError } from '../../errors/app-error.js';
import { HEDONIC } from '../../registry/groups/hedonic.js';
import { VALUATION_REGISTRY_VERSION } from '../../registry/constants.js';
import { splitConformalQuantiles } from '../calibration/conformal.js';
import { mdape, ppe } from '../calibration/metrics.js';
import { COVARIATES as COVARIATE_NAMES, covariates, rowSegment, yearOfDay } from './design.js';
import { fitRows, type RowsFit, type SegmentRows } from './fit-rows.js';
import { linearPart, quarterFor, resolveLocation } from './predict.js';
import { armsLengthMask, salesColumnsFromArrow, type SalesColumns } from '../../store/sales-columns.js';
import { isoOfDay, quarterOfDay } from '../../store/days.js';
import type { HedonicCalibration, HedonicModel, HedonicSegmentFit, TractMeta } from './types.js';

export type FitOptions = { cutoffDay: number };

/** Rows of each segment, arms-length, with complete covariates, sold in [fromDay, toDay). */
export function segmentRows(c: SalesColumns, meta: ReadonlyMap<string, TractMeta>, fromDay: number, toDay: number, arms = armsLengthMask(c)): Map<string, SegmentRows> {
  const out = new Map<string, SegmentRows>();
  for (let i = 0; i < c.length; i++) {
    if (!arms[i] || c.saleDay[i] < fromDay || c.saleDay[i] >= toDay) continue;
    const seg = rowSegment(c, i, meta);
    if (seg === null) continue;
    const cov = covariates(c.sqft[i], c.beds[i], c.yearBuilt[i], c.units[i], c.condition[i], yearOfDay(c.saleDay[i]));
    if (cov === null) continue;
    let r = out.get(seg);
    if (!r) out.set(seg, (r = { y: [], cov: [], quarter: [], tract: [] }));
    r.y.push(Math.log(c.priceUsd[i]));
    r.cov.push(cov);
    r.quarter.push(quarterOfDay(c.saleDay[i]));
    r.tract.push(c.tracts[c.tractIdx[i]]);
  }
  return out;
}

/** Predicted ln(price) of segment rows with a fit; NaN where the location is unresolved. */
export function predictRowsLog(fit: RowsFit, rows: SegmentRows, metaOf: (g: string) => TractMeta | undefined, days: number[]): number[] {
  return rows.y.map((_, i) => {
    const m = metaOf(rows.tract[i]);
    const loc = resolveLocation(fit, rows.tract[i], m?.lat ?? NaN, m?.lon ?? NaN);
    if (!loc) return NaN;
    return loc.effect + linearPart(fit, rows.cov[i]) + fit.quarters[quarterFor(fit, days[i])];
  });
}

function calibrate(stage1: RowsFit, hold: SegmentRows, holdDays: number[], metaOf: (g: string) => TractMeta | undefined, fromDay: number, toDay: number): HedonicCalibration | null {
  const logs = predictRowsLog(stage1, hold, metaOf, holdDays);
  const est: number[] = [], price: number[] = [];
  logs.forEach((l, i) => {
    if (Number.isFinite(l)) { est.push(Math.exp(l)); price.push(Math.exp(hold.y[i])); }
  });
  if (est.length === 0) return null;
  const q = splitConformalQuantiles(est, price);
  const z = HEDONIC.v.interval_z;
  return { n: est.length, qLo: q.qLo, qHi: q.qHi, cLo: q.qLo / Math.exp(-z * stage1.sigma), cHi: q.qHi / Math.exp(z * stage1.sigma), mdape: mdape(est, price), ppe10: ppe(est, price), fromDay, toDay };
}

function eligibility(cal: HedonicCalibration | null): string | null {
  if (!cal || cal.n < HEDONIC.v.min_calib_n) return `fewer than ${HEDONIC.v.min_calib_n} held-out sales to calibrate`;
  if (cal.mdape > HEDONIC.v.max_display_mdape) return `held-out MdAPE ${cal.mdape.toFixed(3)} above ${HEDONIC.v.max_display_mdape}`;
  return null;
}

/** Fits hedonic_v1 on `sales` (an Arrow snapshot or typed columns) using only sales strictly before cutoffDay. */
export function fitHedonic(sales: Table | SalesColumns, tractMeta: readonly TractMeta[], opts: FitOptions): HedonicModel {
  if (!Number.isInteger(opts.cutoffDay)) throw new AppError('validation_failed', 'cutoffDay must be an integer day number');
  const c = 'numRows' in sales ? salesColumnsFromArrow(sales) : sales;
  const meta = new Map(tractMeta.map((t) => [t.geoid, t]));
  const metaOf = (g: string) => meta.get(g);
  const centroid = (g: string) => {
    const m = meta.get(g);
    if (!m) throw new AppError('internal_error', `tract ${g} has no metadata`);
    return { lat: m.lat, lon: m.lon };
  };
  const arms = armsLengthMask(c);
  const holdFrom = opts.cutoffDay - HEDONIC.v.calib_holdout_days;
  const all = segmentRows(c, meta, -Infinity, opts.cutoffDay, arms);
  const early = segmentRows(c, meta, -Infinity, holdFrom, arms);
  const hold = segmentRows(c, meta, holdFrom, opts.cutoffDay, arms);
  const segments: Record<string, HedonicSegmentFit> = {};
  const skipped: Record<string, string> = {};
  for (const seg of [...all.keys()].sort()) {
    const rows = all.get(seg) as SegmentRows;
    if (rows.y.length < HEDONIC.v.min_segment_n) { skipped[seg] = `${rows.y.length} arms-length sales with complete facts (< ${HEDONIC.v.min_segment_n})`; continue; }
    const e = early.get(seg), h = hold.get(seg);
    let cal: HedonicCalibration | null = null;
    const stage1 = e && h && e.y.length >= HEDONIC.v.min_segment_n ? fitRows(e, centroid) : null;
    if (stage1 && h) cal = calibrate(stage1, h, h.quarter.map((_, i) => dayOfRow(h, i, holdFrom)), metaOf, holdFrom, opts.cutoffDay);
    const f = fitRows(rows, centroid);
    if (!f) { skipped[seg] = `${rows.y.length} sales cannot identify the coefficients and tract effects`; continue; }
    const why = eligibility(cal);
    segments[seg] = { segment: seg, ...f, features: [...COVARIATE_NAMES], calibration: cal, displayEligible: why === null, ineligibleReason: why };
  }
  return { model: 'hedonic_v1', version: versionOf(opts.cutoffDay, segments), cutoffDay: opts.cutoffDay, cutoff: isoOfDay(opts.cutoffDay), constantsVersion: VALUATION_REGISTRY_VERSION, segments, skipped };
}

/** Held-out rows carry their quarter; the quarter's first day is enough to pick the quarter effect. */
function dayOfRow(rows: SegmentRows, i: number, fallback: number): number {
  const m = /^(\d{4})Q(\d)$/.exec(rows.quarter[i]);
  if (!m) return fallback;
  return Math.floor(Date.UTC(Number(m[1]), (Number(m[2]) - 1) * 3, 1) / 86_400_000);
}

function versionOf(cutoffDay: number, segments: Record<string, HedonicSegmentFit>): string {
  const h = createHash('sha256').update(JSON.stringify(segments)).digest('hex').slice(0, 10);
  return `${HEDONIC.v.model_name}-${isoOfDay(cutoffDay)}-${h}`;
}
