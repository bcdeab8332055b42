// Accuracy rows of the all-sales backtest (issue 14 items 3-4): per kind (arv / as_is / overall) and segment (plus
// `all`, pooled), the point figures over every scored sale (MdAPE, PPE10, PPE20, COD, PRD, PRB), the 80% interval's
// coverage and mean width and the point / range / suppressed shares over the test half (sales on or after the split
// day: the intervals and display settings exist only from the calibration half). A refused sale counts in n and in the
// suppressed share; it has no error, so the error figures are over the valued sales (n = valued + refused).
import { TIER1 } from '../../registry/groups/tier1.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';
import { calibrationFor, type CalibrationTable } from '../decide/segment.js';
import type { SaleKind, ScoredSale } from './all-sales.js';
import { splitConformalQuantiles } from './conformal.js';
import { mdape, ppe, ppe20, ratioStudy } from './metrics.js';

export type AccuracyKind = SaleKind | 'overall';
export const ALL_SEGMENTS = 'all';

export type AccuracyRow = {
  kind: AccuracyKind;
  /** Segment key, or `all` (every segment pooled). */
  group: string;
  n: number;
  valued: number;
  refused: number;
  mdape: number | null;
  ppe10: number | null;
  ppe20: number | null;
  /** IAAO-trimmed (3 x IQR) as in the calibration report; null under 2 valued sales. */
  cod: number | null;
  prd: number | null;
  prb: number | null;
  /** Test half: valued sales with an interval, and the share of their prices inside it / mean (hi − lo) / estimate. */
  nCoverage: number;
  coverage80: number | null;
  meanWidth80: number | null;
  /** Test half: every sale (refused ones are suppressed) under the display serving gives it. */
  nOutcome: number;
  pointShare: number | null;
  rangeShare: number | null;
  suppressedShare: number | null;
};

export type Outcome = 'point' | 'range' | 'suppressed';
/** What a scored sale of the test half got: an interval as ratio bounds (null: none) and a display outcome. */
export type Served = { bounds: { lo: number; hi: number } | null; outcome: Outcome };

/**
 * ARV: serving's own lookup (segment row or declared fallback, Mondrian class) of the ARV calibration table; no row →
 * range without interval (serving without calibration is range-only). As-is: valued → point (serving shows the as-is
 * value as a number) with the report-only as-is band of its segment.
 */
export function servedOf(s: ScoredSale, table: CalibrationTable | null, asIsBands: AsIsBands): Served {
  if (s.estimateUsd === null) return { bounds: null, outcome: 'suppressed' };
  if (s.kind === 'as_is') return { bounds: asIsBands.get(asIsClassOf(s)) ?? asIsBands.get(s.segment) ?? asIsBands.get(ALL_SEGMENTS) ?? null, outcome: 'point' };
  const cal = calibrationFor(table, s.segment, s);
  if (!cal) return { bounds: null, outcome: 'range' };
  return { bounds: { lo: cal.q80Lo, hi: cal.q80Hi }, outcome: cal.display === 'point' ? 'point' : cal.display === 'range' ? 'range' : 'suppressed' };
}

export type AsIsBands = Map<string, { lo: number; hi: number }>;

/** An as-is sale's band class: its segment, split by whether its earlier sale moved it (as the ARV classes are). */
const asIsClassOf = (s: ScoredSale): string => (s.compsValueUsd === undefined ? s.segment : `${s.segment}+prior`);

/**
 * Report-only 80% bands for as-is values: the same split-conformal procedure as ARV (ratios price / estimate of the
 * calibration half) per segment with at least calibration_min_n valued sales, per segment and whether its earlier
 * sale moved it (`<segment>+prior`: such values err less, and the halves hold different shares of them), and over
 * all segments (`all`); a sale takes the finest band that exists. Serving's
 * as-is range stays the comps' quartiles; these bands say what an interval calibrated like ARV's would cover.
 */
export function asIsBands(calibration: readonly ScoredSale[]): AsIsBands {
  const valued = calibration.filter((s) => s.kind === 'as_is' && s.estimateUsd !== null);
  const out: AsIsBands = new Map();
  const groups = new Map<string, ScoredSale[]>([[ALL_SEGMENTS, valued]]);
  for (const s of valued) {
    // an unmoved sale's class is its segment: listed once, not twice
    for (const key of new Set([s.segment, asIsClassOf(s)])) {
      const list = groups.get(key);
      if (list) list.push(s);
      else groups.set(key, [s]);
    }
  }
  for (const [g, rs] of groups) {
    if (rs.length < TIER1.v.calibration_min_n) continue;
    const q = splitConformalQuantiles(rs.map((s) => s.estimateUsd as number), rs.map((s) => s.priceUsd), VALUATION_DISPLAY.v.interval_coverage);
    out.set(g, { lo: q.qLo, hi: q.qHi });
  }
  return out;
}

const share = (k: number, n: number): number | null => (n > 0 ? k / n : null);

/** One accuracy row over `sales`; `servedOfTest` gives each test-half sale its interval and outcome. */
export function accuracyRow(kind: AccuracyKind, group: string, sales: readonly ScoredSale[], splitDay: number, servedOfTest: (s: ScoredSale) => Served): AccuracyRow {
  const valued = sales.filter((s) => s.estimateUsd !== null);
  const est = valued.map((s) => s.estimateUsd as number);
  const price = valued.map((s) => s.priceUsd);
  const study = valued.length >= 2 ? ratioStudy(est, price) : null;
  const test = sales.filter((s) => s.saleDay >= splitDay).map((s) => ({ s, served: servedOfTest(s) }));
  const withBand = test.filter((t) => t.s.estimateUsd !== null && t.served.bounds !== null);
  const inside = withBand.filter(({ s, served }) => s.priceUsd >= served.bounds!.lo * s.estimateUsd! && s.priceUsd <= served.bounds!.hi * s.estimateUsd!).length;
  const width = withBand.reduce((acc, t) => acc + (t.served.bounds!.hi - t.served.bounds!.lo), 0);
  const count = (o: Outcome): number => test.filter((t) => t.served.outcome === o).length;
  return {
    kind, group, n: sales.length, valued: valued.length, refused: sales.length - valued.length,
    mdape: valued.length ? mdape(est, price) : null,
    ppe10: valued.length ? ppe(est, price, VALUATION_DISPLAY.v.ppe_band_frac) : null,
    ppe20: valued.length ? ppe20(est, price) : null,
    cod: study?.cod ?? null, prd: study?.prd ?? null, prb: study?.prb ?? null,
    nCoverage: withBand.length, coverage80: share(inside, withBand.length), meanWidth80: withBand.length ? width / withBand.length : null,
    nOutcome: test.length, pointShare: share(count('point'), test.length), rangeShare: share(count('range'), test.length), suppressedShare: share(count('suppressed'), test.length),
  };
}

/** Every (kind, segment) row plus each kind's `all` row; kinds arv, as_is, then overall (every sale, either value). */
export function accuracyRows(scored: readonly ScoredSale[], splitDay: number, served: (s: ScoredSale) => Served): AccuracyRow[] {
  const rows: AccuracyRow[] = [];
  for (const kind of ['arv', 'as_is', 'overall'] as const) {
    const ofKind = kind === 'overall' ? scored : scored.filter((s) => s.kind === kind);
    for (const seg of [...new Set(ofKind.map((s) => s.segment))].sort()) rows.push(accuracyRow(kind, seg, ofKind.filter((s) => s.segment === seg), splitDay, served));
    rows.push(accuracyRow(kind, ALL_SEGMENTS, ofKind, splitDay, served));
  }
  return rows;
}
