// Backtest records → the calibration table: split the holdout in time (first half calibrates, second half tests),
// per segment split-conformal q80_lo/q80_hi of r = price / estimate, confidence_p10, test metrics, and the display
// setting chosen by the gates of the tier1_valuation constants group; within a segment, Mondrian rows per evidence
// class (ladder step) with enough calibration ratios. Pure: no store, no clock.
import type { PriorSaleFit } from '../comps/prior-sale.js';
import { createHash } from 'node:crypto';
import { TIER1 } from '../../registry/groups/tier1.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';
import { splitConformalQuantiles } from './conformal.js';
import type { DisplaySetting } from '../decide/ladder-evidence.js';
import { mdape, ppe, ratioStudy } from './metrics.js';
import { ALL_POOLED, evidenceClassOf, intervalRowFor, pooledKey, ptypeOfSegment, type CalibrationClassRow, type CalibrationRow, type CalibrationTable, type IntervalRows, type SegmentMetrics } from '../decide/segment.js';
import type { BacktestRecord } from './backtest.js';

export type Split = { calibration: BacktestRecord[]; test: BacktestRecord[]; splitDay: number };

/** Time split at the median sale day of the holdout: sales before it calibrate, the rest test. */
export function splitInTime(records: readonly BacktestRecord[]): Split {
  const days = records.map((r) => r.saleDay).sort((a, b) => a - b);
  const splitDay = days.length === 0 ? 0 : days[Math.floor(days.length / 2)];
  return { calibration: records.filter((r) => r.saleDay < splitDay), test: records.filter((r) => r.saleDay >= splitDay), splitDay };
}

type Valued = BacktestRecord & { estimateUsd: number };
const valuedOf = (rs: readonly BacktestRecord[]): Valued[] => rs.filter((r): r is Valued => r.estimateUsd !== null);

export type RatioBounds = { lo: number; hi: number };

/**
 * Test metrics of a group; `q` = the conformal ratio bounds applied to each estimate, the same for all or per sale
 * (Mondrian: each sale's class row); null = no interval.
 */
export function groupMetrics(all: readonly BacktestRecord[], q: RatioBounds | ((r: BacktestRecord) => RatioBounds) | null): SegmentMetrics {
  const v = valuedOf(all);
  const est = v.map((r) => r.estimateUsd);
  const price = v.map((r) => r.priceUsd);
  const study = v.length >= 2 ? ratioStudy(est, price) : null;
  const bounds = q === null ? null : v.map((r) => (typeof q === 'function' ? q(r) : q));
  const covered = bounds ? v.filter((r, i) => r.priceUsd >= bounds[i].lo * r.estimateUsd && r.priceUsd <= bounds[i].hi * r.estimateUsd).length : 0;
  const width = bounds ? bounds.reduce((acc, b) => acc + (b.hi - b.lo), 0) : 0;
  return {
    n: v.length,
    mdape: v.length > 0 ? mdape(est, price) : null,
    ppe10: v.length > 0 ? ppe(est, price) : null,
    coverage80: bounds && v.length > 0 ? covered / v.length : null,
    meanWidth80: bounds && v.length > 0 ? width / v.length : null,
    cod: study?.cod ?? null,
    prd: study?.prd ?? null,
    prb: study?.prb ?? null,
    suppressionRate: all.length > 0 ? (all.length - v.length) / all.length : null,
  };
}

/** The display gate: point / range / suppress from the test metrics (constants in tier1_valuation). */
export function chooseDisplay(m: SegmentMetrics): { display: DisplaySetting; reason: string } {
  const g = TIER1.v;
  const nominal = VALUATION_DISPLAY.v.interval_coverage;
  if (m.n < g.gate_min_test_n) return { display: 'range', reason: `test n ${m.n} < ${g.gate_min_test_n}` };
  if (m.mdape !== null && m.mdape > g.gate_suppress_max_mdape) return { display: 'suppress', reason: `test MdAPE ${m.mdape.toFixed(3)} > ${g.gate_suppress_max_mdape}` };
  const ppeOk = m.ppe10 !== null && m.ppe10 >= g.gate_point_min_ppe10;
  const covOk = m.coverage80 !== null && Math.abs(m.coverage80 - nominal) <= g.gate_coverage_tolerance;
  if (ppeOk && covOk) return { display: 'point', reason: `PPE10 ${m.ppe10!.toFixed(3)} >= ${g.gate_point_min_ppe10} and coverage ${m.coverage80!.toFixed(3)} within ±${g.gate_coverage_tolerance}` };
  return { display: 'range', reason: `${ppeOk ? '' : `PPE10 ${m.ppe10?.toFixed(3)} < ${g.gate_point_min_ppe10}; `}${covOk ? '' : `coverage ${m.coverage80?.toFixed(3)} outside ±${g.gate_coverage_tolerance}`}`.trim() };
}

/** Conformal quantiles and confidence_p10 of valued calibration records (at least one). */
function conformalOf(v: readonly Valued[]): { q: RatioBounds; confidenceP10: number } {
  const est = v.map((r) => r.estimateUsd);
  const price = v.map((r) => r.priceUsd);
  const q = splitConformalQuantiles(est, price, VALUATION_DISPLAY.v.interval_coverage);
  return { q: { lo: q.qLo, hi: q.qHi }, confidenceP10: ppe(est, price) * 100 };
}

/** Mondrian rows: each evidence class with at least calibration_class_min_n valued calibration records. */
export function classRows(cal: readonly BacktestRecord[], test: readonly BacktestRecord[]): Record<string, CalibrationClassRow> {
  const byClass = new Map<string, Valued[]>();
  for (const r of valuedOf(cal)) {
    const k = evidenceClassOf(r);
    if (k) byClass.set(k, [...(byClass.get(k) ?? []), r]);
  }
  const out: Record<string, CalibrationClassRow> = {};
  for (const [k, v] of [...byClass].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (v.length < TIER1.v.calibration_class_min_n) continue;
    const { q, confidenceP10 } = conformalOf(v);
    out[k] = { q80Lo: q.lo, q80Hi: q.hi, confidenceP10, nCalibration: v.length, test: groupMetrics(test.filter((r) => evidenceClassOf(r) === k), q) };
  }
  return out;
}

/** The ratio bounds serving gives a sale of `row`'s segment (its class row, else the segment row). */
export const boundsFor = (row: IntervalRows, r: BacktestRecord): RatioBounds => {
  const i = intervalRowFor(row, r);
  return { lo: i.q80Lo, hi: i.q80Hi };
};

/** One segment's row, or null when the calibration half has fewer than calibration_min_n valued sales. */
export function segmentRow(segment: string, cal: readonly BacktestRecord[], test: readonly BacktestRecord[]): CalibrationRow | null {
  const v = valuedOf(cal);
  if (v.length < TIER1.v.calibration_min_n) return null;
  const { q, confidenceP10 } = conformalOf(v);
  const classes = classRows(cal, test);
  const base = { segment, q80Lo: q.lo, q80Hi: q.hi, confidenceP10, nCalibration: v.length, classes };
  // The gate judges the intervals serving will give (Mondrian where a class is calibrated).
  const metrics = groupMetrics(test, (r) => boundsFor(base, r));
  const { display, reason } = chooseDisplay(metrics);
  return { ...base, display, displayReason: reason, test: metrics };
}

const groupBy = (rs: readonly BacktestRecord[]): Map<string, BacktestRecord[]> => {
  const m = new Map<string, BacktestRecord[]>();
  for (const r of rs) m.set(r.segment, [...(m.get(r.segment) ?? []), r]);
  return m;
};

export type TableMeta = { createdAt: string; snapshotId: string; modelVersion: string; registryVersion: string; startDay: number; endDay: number; /** The backtest's prior-sale weights (its records carry them), Tier 1's and the as-is value's. */ priorSale?: PriorSaleFit; priorSaleAsIs?: PriorSaleFit };

/** The calibration table of a backtest; version = model version + a digest of the rows. */
export function buildCalibrationTable(records: readonly BacktestRecord[], meta: TableMeta): CalibrationTable {
  const split = splitInTime(records);
  const cal = groupBy(split.calibration);
  const test = groupBy(split.test);
  const segments: Record<string, CalibrationRow> = {};
  for (const seg of [...new Set(records.map((r) => r.segment))].sort()) {
    const row = segmentRow(seg, cal.get(seg) ?? [], test.get(seg) ?? []);
    if (row) segments[seg] = row;
  }
  const fallbacks = pooledRows(split);
  const overall = overallMetrics(split.test, segments);
  const digest = createHash('sha256').update(JSON.stringify({ segments, fallbacks, snapshot: meta.snapshotId, ...(meta.priorSale ? { priorSale: meta.priorSale } : {}), ...(meta.priorSaleAsIs ? { priorSaleAsIs: meta.priorSaleAsIs } : {}) })).digest('hex').slice(0, 12);
  return {
    version: `cal-${meta.modelVersion}-${digest}`,
    createdAt: meta.createdAt, snapshotId: meta.snapshotId, modelVersion: meta.modelVersion, registryVersion: meta.registryVersion,
    holdout: { startDay: meta.startDay, splitDay: split.splitDay, endDay: meta.endDay },
    segments,
    fallbacks,
    overall,
    ...(meta.priorSale ? { priorSale: meta.priorSale } : {}),
    ...(meta.priorSaleAsIs ? { priorSaleAsIs: meta.priorSaleAsIs } : {}),
  };
}

/**
 * The declared fallback rows: one per property type over all its calibration sales (city and suburb pooled), and
 * one over every type; each with its own test metrics. A row is kept only with calibration_min_n valued sales.
 */
export function pooledRows(split: Split): Record<string, CalibrationRow> {
  const out: Record<string, CalibrationRow> = {};
  const ptypes = [...new Set([...split.calibration, ...split.test].map((r) => ptypeOfSegment(r.segment)))].sort();
  for (const ptype of ptypes) {
    const row = segmentRow(pooledKey(ptype), split.calibration.filter((r) => ptypeOfSegment(r.segment) === ptype), split.test.filter((r) => ptypeOfSegment(r.segment) === ptype));
    if (row) out[row.segment] = row;
  }
  const all = segmentRow(ALL_POOLED, split.calibration, split.test);
  if (all) out[all.segment] = all;
  return out;
}

/** Overall test metrics; each sale's interval is the one serving gives it (sales of uncalibrated segments have none). */
export function overallMetrics(test: readonly BacktestRecord[], segments: Record<string, CalibrationRow>): SegmentMetrics {
  const base = groupMetrics(test, null);
  const withRow = groupMetrics(test.filter((r) => segments[r.segment]), (r) => boundsFor(segments[r.segment], r));
  return { ...base, coverage80: withRow.coverage80, meanWidth80: withRow.meanWidth80 };
}
