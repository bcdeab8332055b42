// A fixed calibration table (two segments, one with a Mondrian class row) whose artifact digest is pinned: numbers are
// illustrative, chosen to exercise non-integer, negative, null and nested members of the canonical form.
import type { CalibrationTable, SegmentMetrics } from '../../src/valuation/decide/segment.js';

const metrics = (n: number, coverage: number | null): SegmentMetrics => ({
  n, mdape: 0.0812, ppe10: 0.61, coverage80: coverage, meanWidth80: 0.274, cod: 9.3, prd: 1.012, prb: -0.0071, suppressionRate: 0.125,
});

export const FIXED_TABLE: CalibrationTable = {
  version: 'cal-avm-test-1-0123456789ab',
  createdAt: '2026-11-21T00:00:00.000Z',
  snapshotId: 'snap-fixed',
  modelVersion: 'avm-test-1',
  registryVersion: 'registry-test-1',
  holdout: { startDay: 19_700, splitDay: 20_065, endDay: 20_430 },
  segments: {
    sfh_city: {
      segment: 'sfh_city', q80Lo: 0.87, q80Hi: 1.16, confidenceP10: 58.2, display: 'point', displayReason: 'coverage and cod within gates',
      nCalibration: 412, test: metrics(398, 0.79),
      classes: { step1: { q80Lo: 0.9, q80Hi: 1.11, confidenceP10: 63.5, nCalibration: 250, test: metrics(240, 0.81) } },
    },
    mf2_4_suburb: {
      segment: 'mf2_4_suburb', q80Lo: 0.78, q80Hi: 1.3, confidenceP10: 41, display: 'range', displayReason: 'cod above the point gate',
      nCalibration: 57, test: metrics(49, null),
    },
  },
  overall: metrics(447, 0.795),
};
