// Mondrian (group-conditional) split conformal: per segment × evidence class (ladder step) rows with a fallback to the
// segment row below calibration_class_min_n, the served-interval test metrics, and serving's lookup of the same row.
import { describe, expect, it } from 'vitest';
import { TIER1 } from '../../src/registry/groups/tier1.js';
import type { BacktestRecord } from '../../src/valuation/calibration/backtest.js';
import { classRows, overallMetrics, segmentRow } from '../../src/valuation/calibration/table.js';
import { calibrationFor, evidenceClassOf, segmentOfCalibrationKey, type CalibrationTable } from '../../src/valuation/decide/segment.js';
import { valueProperty } from '../../src/valuation/value.js';
import { SUBJECT, calTable, contextOf, renovatedRows, salesOf } from './tier1-fixture.js';

type Step = 1 | 2 | 3;
const rec = (saleDay: number, priceUsd: number, ladderStep: Step, estimateUsd: number | null = 100): BacktestRecord => ({ row: saleDay, saleDay, priceUsd, segment: 'sfh_city', estimateUsd, nComps: 5, ladderStep, fsdPct: 10, reason: null });

// Calibration half (estimate 100 each, so ratio = price / 100):
//   step 3: 100 sales priced 51..150 → ratios 0.51..1.50; n = 100 → ranks floor(101·0.1) = 10, ceil(101·0.9) = 91 → [0.60, 1.41]
//   step 2:  40 sales priced 91..130 → 40 < calibration_class_min_n (100): no class row, the segment row serves them
//   segment: 140 ratios; ranks floor(141·0.1) = 14, ceil(141·0.9) = 127. The 40 lowest (0.51..0.90) and 20 highest
//            (1.31..1.50) are step-3 only → 14th smallest 0.64, 127th = 14th largest = 1.50 − 0.13 = 1.37 → [0.64, 1.37]
const CAL = [...Array.from({ length: 100 }, (_, i) => rec(i, 51 + i, 3)), ...Array.from({ length: 40 }, (_, i) => rec(200 + i, 91 + i, 2))];

describe('Mondrian conformal rows', () => {
  it('the class minimum is the registry constant this fixture straddles', () => {
    expect(TIER1.v.calibration_class_min_n).toBe(100);
  });

  it('a class with enough calibration ratios gets its own quantiles; a thin class none', () => {
    const rows = classRows(CAL, []);
    expect(Object.keys(rows)).toEqual(['step3']);
    expect(rows.step3.q80Lo).toBeCloseTo(0.6, 12);
    expect(rows.step3.q80Hi).toBeCloseTo(1.41, 12);
    expect(rows.step3.nCalibration).toBe(100);
    // |estimate/price − 1| ≤ 10% ⇔ price ∈ [90.9, 111.1] → prices 91..111: 21 of 100
    expect(rows.step3.confidenceP10).toBeCloseTo(21, 10);
  });

  it('segment test metrics judge each sale under the interval serving gives it', () => {
    // step 3 @140: inside its class [60, 141], outside the segment's [64, 137]; step 2 @138 (segment row): outside;
    // step 2 @100: inside → 2 of 3. Mean width (0.81 + 0.73 + 0.73) / 3.
    const test = [rec(300, 140, 3), rec(301, 138, 2), rec(302, 100, 2)];
    const row = segmentRow('sfh_city', CAL, test)!;
    expect(row.q80Lo).toBeCloseTo(0.64, 12);
    expect(row.q80Hi).toBeCloseTo(1.37, 12);
    expect(row.test.coverage80).toBeCloseTo(2 / 3, 12);
    expect(row.test.meanWidth80).toBeCloseTo((0.81 + 0.73 + 0.73) / 3, 12);
    // the class row's own test metrics: its one test sale covered
    expect(row.classes?.step3.test).toMatchObject({ n: 1, coverage80: 1 });
    const overall = overallMetrics(test, { sfh_city: row });
    expect(overall.coverage80).toBeCloseTo(2 / 3, 12);
  });
});

describe('serving lookup', () => {
  const row = segmentRow('sfh_city', CAL, [rec(300, 100, 3)])!;
  const table: CalibrationTable = { ...calTable('sfh_city', 'point'), segments: { sfh_city: { ...row, display: 'point' } } };

  it('names the class used, falls back to the segment row for an uncalibrated class or no evidence', () => {
    expect(evidenceClassOf({ ladderStep: 3 })).toBe('step3');
    expect(evidenceClassOf({ ladderStep: null })).toBeNull();
    expect(calibrationFor(table, 'sfh_city', { ladderStep: 3 })).toEqual({ segment: 'sfh_city/step3', version: 'cal-test-1', q80Lo: row.classes!.step3.q80Lo, q80Hi: row.classes!.step3.q80Hi, confidenceP10: row.classes!.step3.confidenceP10, display: 'point' });
    expect(calibrationFor(table, 'sfh_city', { ladderStep: 2 })).toMatchObject({ segment: 'sfh_city', q80Lo: row.q80Lo, q80Hi: row.q80Hi });
    expect(calibrationFor(table, 'sfh_city')).toMatchObject({ segment: 'sfh_city', q80Lo: row.q80Lo });
    expect(segmentOfCalibrationKey('sfh_city/step3')).toBe('sfh_city');
  });

  it('a table written before classes existed serves its segment row', () => {
    const old = calTable('sfh_city', 'point');
    expect(old.segments.sfh_city.classes).toBeUndefined();
    expect(calibrationFor(old, 'sfh_city', { ladderStep: 1 })).toMatchObject({ segment: 'sfh_city', q80Lo: 0.9, q80Hi: 1.12 });
  });

  it('a valuation serves its class interval: arv.interval.segment names it, arv.segment stays the plain key', () => {
    // 8 renovated comps within 0.3 mi and 120 days: ladder step 1; give step 1 a class row [0.5, 2.0]
    const base = calTable('sfh_city', 'point');
    const seg = base.segments.sfh_city;
    const cls = { q80Lo: 0.5, q80Hi: 2, confidenceP10: 40, nCalibration: 100, test: seg.test };
    const withClass: CalibrationTable = { ...base, segments: { sfh_city: { ...seg, classes: { step1: cls } } } };
    const v = valueProperty({ lat: SUBJECT.lat, lon: SUBJECT.lon, units: 1 }, contextOf(salesOf(renovatedRows(8)), { calibration: withClass }));
    expect(v.arv.ladder_step).toBe(1);
    expect(v.arv.segment).toBe('sfh_city');
    expect(v.arv.interval).toMatchObject({ segment: 'sfh_city/step1', version: 'cal-test-1', method: 'split_conformal', calibrated: true });
    expect(v.arv.confidence_p10).toBe(40);
    // unrounded value: the distance-weighted median of the 8 comps (no time index) = 300,000 (worked in
    // test/valuation/comps/tier1.test.ts); class band [0.5 × 300,000, 2 × 300,000] = [150,000, 600,000]
    expect(v.artifact?.arv).toMatchObject({ value: 300_000, low: 150_000, high: 600_000, segment: 'sfh_city' });
    expect(v.arv.interval).toMatchObject({ low: 150_000, high: 600_000 });
  });
});
