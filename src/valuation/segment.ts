// Calibration segments `<ptype>_<city|suburb>` and the versioned calibration table serving reads (written by the
// calibration job, stored by the model registry). Lookup turns a table row into the ladder's CalibrationSegment.
import { normalizeMunicipality } from '../reference/load.js';
import type { CalibrationSegment, DisplaySetting } from './ladder-evidence.js';

export type SegmentPtype = 'sfh' | 'mf2_4' | 'condo';
export type SegmentKey = `${SegmentPtype}_${'city' | 'suburb'}`;

/** City = a tract whose municipality is Chicago; everything else (suburban Cook, all of Lake, unknown) is suburb. */
export function isCityMuni(muni: string | null | undefined): boolean {
  return muni != null && normalizeMunicipality(muni) === 'chicago';
}

export function segmentKey(ptype: SegmentPtype, muni: string | null | undefined): SegmentKey {
  return `${ptype}_${isCityMuni(muni) ? 'city' : 'suburb'}`;
}

/** Error metrics of one group of the backtest (ratios = estimate / price unless noted). */
export type SegmentMetrics = {
  n: number;
  mdape: number | null;
  ppe10: number | null;
  coverage80: number | null;
  meanWidth80: number | null;
  cod: number | null;
  prd: number | null;
  prb: number | null;
  suppressionRate: number | null;
};

/** One row of the calibration table: conformal ratio quantiles (price / estimate) and the display gate. */
export type CalibrationRow = {
  segment: string;
  q80Lo: number;
  q80Hi: number;
  /** P(|error| ≤ 10%) × 100 on the calibration split. */
  confidenceP10: number;
  display: DisplaySetting;
  /** Why the gates chose `display`. */
  displayReason: string;
  nCalibration: number;
  test: SegmentMetrics;
};

export type CalibrationTable = {
  version: string;
  createdAt: string;
  snapshotId: string;
  modelVersion: string;
  registryVersion: string;
  /** Days (since 1970-01-01) bounding the calibration and test halves of the holdout. */
  holdout: { startDay: number; splitDay: number; endDay: number };
  segments: Record<string, CalibrationRow>;
  overall: SegmentMetrics;
};

/** The ladder's calibration evidence for `segment`, or null when the table has no row for it. */
export function calibrationFor(table: CalibrationTable | null, segment: string): CalibrationSegment | null {
  const row = table?.segments[segment];
  if (!table || !row) return null;
  return { segment, version: table.version, q80Lo: row.q80Lo, q80Hi: row.q80Hi, confidenceP10: row.confidenceP10, display: row.display };
}
