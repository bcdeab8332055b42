// Calibration segments `<ptype>_<city|suburb>` and the versioned calibration table serving reads (written by the
// calibration job, stored by the model registry). Lookup turns a table row — or, Mondrian style, the row of the
// valuation's evidence class within its segment — into the ladder's CalibrationSegment.
import type { PriorSaleFit } from '../comps/prior-sale.js';
import { normalizeMunicipality } from '../../reference/load.js';
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

/**
 * The Tier-2 (hedonic) segment of a sale or subject: Cook's calibration segment, and `<ptype>_lake` for Lake, whose
 * market (own assessor, price levels and trends) is fit and calibrated on its own sales, never on Cook's. A Lake
 * segment serves only when its own out-of-time calibration makes it display-eligible (issue 14 item 5).
 */
export function hedonicSegmentOf(ptype: SegmentPtype, county: 'cook' | 'lake', muni: string | null | undefined): string {
  return county === 'lake' ? `${ptype}_lake` : segmentKey(ptype, muni);
}

/** The county a hedonic segment was fit on (hedonicSegmentOf). */
export function hedonicSegmentCounty(segment: string): 'cook' | 'lake' {
  return segment.endsWith('_lake') ? 'lake' : 'cook';
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

/** The conformal row of one evidence class within a segment (Mondrian split conformal). */
export type CalibrationClassRow = {
  q80Lo: number;
  q80Hi: number;
  /** P(|error| ≤ 10%) × 100 over the class's calibration ratios. */
  confidenceP10: number;
  nCalibration: number;
  /** The class's test-half metrics under its own interval. */
  test: SegmentMetrics;
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
  /** Test metrics, each sale under the interval serving would give it (its class row, else this row). */
  test: SegmentMetrics;
  /**
   * Evidence classes (evidenceClassOf) with at least calibration_class_min_n calibration ratios; a class not listed
   * takes this segment row. Absent in tables written before tier1_valuation 1.2.0 (every sale then takes the row).
   */
  classes?: Record<string, CalibrationClassRow>;
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
  /**
   * Declared fallback rows (`<ptype>_pooled`, then `all_pooled`): split conformal over every valued calibration sale
   * of the property type (then of all types). They serve a segment with no row of its own, always as a range, and
   * say so on the interval. Absent in tables written before tier1_valuation 1.3.0.
   */
  fallbacks?: Record<string, CalibrationRow>;
  overall: SegmentMetrics;
  /**
   * Weights of the subject's own earlier sale (comps/prior-sale.ts), fitted on the calibration half; every row above
   * was measured on values carrying them. Absent in tables written before tier1_valuation 1.5.0 (no adjustment).
   */
  priorSale?: PriorSaleFit;
  /** The as-is value's own weights of the earlier sale, fitted on the as-is backtest's calibration half (absent: no move). */
  priorSaleAsIs?: PriorSaleFit;
};

/** Key of the pooled fallback row of a property type, and of all types. */
export const pooledKey = (ptype: string): string => `${ptype}_pooled`;
export const ALL_POOLED = 'all_pooled';

/** The property type of a segment key `<ptype>_<city|suburb>` (`mf2_4_suburb` → `mf2_4`). */
export function ptypeOfSegment(segment: string): string {
  const i = segment.lastIndexOf('_');
  return i < 0 ? segment : segment.slice(0, i);
}

/**
 * What a valuation's evidence class is read from: the comp-policy ladder step of its Tier-1 comps, and whether its own
 * earlier sale moved the value (`compsValueUsd` is set exactly then: the comps value before the move).
 */
export type ClassEvidence = { ladderStep: 1 | 2 | 3 | null; compsValueUsd?: number | null };

/**
 * The evidence class of a valuation within its segment: its ladder step (`step1`..`step3`; step 3 = the widest,
 * thinnest search), `+prior` when its own earlier sale moved it (comps/prior-sale.ts). Chosen on the calibration half
 * only: comp-count and fsd-tier classes were no better there. The prior-sale split is needed because the share of
 * sales with an earlier sale of their own grows with time (the older half of a backtest has fewer), so one interval
 * for both would over-cover the moved values and under-cover the others (3.1.0 default corpus: every segment over
 * by 1.4-9.7 points with one row).
 */
export function evidenceClassOf(ev: ClassEvidence | null | undefined): string | null {
  return ev?.ladderStep ? `step${ev.ladderStep}${ev.compsValueUsd != null ? '+prior' : ''}` : null;
}

/** Separator of `<segment>/<class>` in CalibrationSegment.segment (arv.interval.segment). */
const CLASS_SEP = '/';

/** The plain segment key of a calibration key (`mf2_4_city/step3` → `mf2_4_city`); arv.segment is the plain key. */
export function segmentOfCalibrationKey(key: string): string {
  const i = key.indexOf(CLASS_SEP);
  return i < 0 ? key : key.slice(0, i);
}

/** The parts of a table row the interval lookup reads. */
export type IntervalRows = Pick<CalibrationRow, 'segment' | 'q80Lo' | 'q80Hi' | 'confidenceP10' | 'classes'>;

/** The interval row a valuation of `row`'s segment gets: its class row when calibrated, else the segment row. */
export function intervalRowFor(row: IntervalRows, ev: ClassEvidence | null | undefined): { key: string; q80Lo: number; q80Hi: number; confidenceP10: number } {
  const cls = evidenceClassOf(ev);
  const c = cls ? row.classes?.[cls] : undefined;
  return c ? { key: `${row.segment}${CLASS_SEP}${cls}`, q80Lo: c.q80Lo, q80Hi: c.q80Hi, confidenceP10: c.confidenceP10 } : { key: row.segment, q80Lo: row.q80Lo, q80Hi: row.q80Hi, confidenceP10: row.confidenceP10 };
}

/**
 * The ladder's calibration evidence for `segment`, or null when the table has neither a row for it nor a fallback.
 * With `ev` the interval and confidence_p10 are its evidence class's (segment `mf2_4_city/step3`); the display setting
 * stays the segment's. A segment without a row of its own takes the declared fallback (its type's pooled row, then
 * all types'), displayed as a range and named on the interval.
 */
export function calibrationFor(table: CalibrationTable | null, segment: string, ev?: ClassEvidence | null): CalibrationSegment | null {
  if (!table) return null;
  const own = table.segments[segment];
  const row = own ?? table.fallbacks?.[pooledKey(ptypeOfSegment(segment))] ?? table.fallbacks?.[ALL_POOLED];
  if (!row) return null;
  const r = intervalRowFor(row, ev);
  const at = { segment: r.key, version: table.version, q80Lo: r.q80Lo, q80Hi: r.q80Hi, confidenceP10: r.confidenceP10 };
  return own ? { ...at, display: row.display } : { ...at, display: 'range', fallbackFor: segment };
}
