// A hand-built calibration table and test half whose reliability bins, step coverage and errors are worked out by hand
// in report-figures.test.ts; the HTML tests draw from them too.
import type { CalibrationTable, SegmentMetrics } from '../../../src/valuation/decide/segment.js';
import type { BacktestRecord } from '../../../src/valuation/calibration/backtest.js';

const METRICS: SegmentMetrics = { n: 0, mdape: null, ppe10: null, coverage80: null, meanWidth80: null, cod: null, prd: null, prb: null, suppressionRate: null };

/** A test sale priced $100,000 valued at `ratio` × price (null: not valued). */
export function rec(segment: string, ratio: number | null, ladderStep: 1 | 2 | 3 | null): BacktestRecord {
  return { row: 0, saleDay: 20_000, priceUsd: 100_000, segment, estimateUsd: ratio === null ? null : 100_000 * ratio, nComps: 5, ladderStep, fsdPct: 8, reason: ratio === null ? 'thin' : null };
}

/** sfh_city: segment row p10 72 (q 0.9–1.1), class step1 p10 85 (q 0.8–1.25); mf2_4_city: p10 40 (q 0.7–1.3); no fallbacks. */
export function fixtureTable(): CalibrationTable {
  const row = (segment: string, confidenceP10: number, q80Lo: number, q80Hi: number) => ({ segment, q80Lo, q80Hi, confidenceP10, display: 'range' as const, displayReason: 'fixture', nCalibration: 40, test: METRICS });
  return {
    version: 'cal-fixture', createdAt: '2026-01-01T00:00:00Z', snapshotId: 'snap-1', modelVersion: 'm', registryVersion: 'r',
    holdout: { startDay: 19_000, splitDay: 19_500, endDay: 20_100 },
    segments: {
      sfh_city: { ...row('sfh_city', 72, 0.9, 1.1), classes: { step1: { q80Lo: 0.8, q80Hi: 1.25, confidenceP10: 85, nCalibration: 30, test: METRICS } } },
      mf2_4_city: row('mf2_4_city', 40, 0.7, 1.3),
    },
    overall: METRICS,
  };
}

/** The test half: ratios are estimate / price. */
export function fixtureTest(): BacktestRecord[] {
  return [
    rec('sfh_city', 1.05, 1), rec('sfh_city', 0.95, 1), rec('sfh_city', 1.2, 1), rec('sfh_city', 1.0, 1),
    rec('sfh_city', 1.0, 2), rec('sfh_city', 0.8, 2),
    rec('mf2_4_city', 1.0, 3), rec('mf2_4_city', 1.0, 3), rec('mf2_4_city', 1.5, 3),
    rec('sfh_city', null, null),
    rec('condo_city', 1.0, 1),
  ];
}
