// The report's oracle coverage: the segment's split-conformal procedure fitted on the calibration half with the true
// value in place of the estimate and measured on the test half, counted by hand.
import { describe, expect, it } from 'vitest';
import type { BacktestRecord } from '../../src/valuation/calibration/backtest.js';
import { oracleCoverage, pooledOracleCoverage } from '../../src/valuation/calibration/oracle.js';

const TRUE_USD = 1000;

/** A valued record (estimate 1) of price `priceUsd`; `row` keys its true value in the test's truth map. */
const rec = (row: number, priceUsd: number, valued = true): BacktestRecord => ({
  row, saleDay: 20_000 + row, priceUsd, segment: 'sfh_city', estimateUsd: valued ? 1 : null, nComps: 5, ladderStep: 1, fsdPct: 5, reason: null,
});

// 30 calibration sales at price / true = 0.86, 0.87, …, 1.15: ranks floor(31·0.1) = 3 and ceil(31·0.9) = 28 → [0.88, 1.13].
const cal = Array.from({ length: 30 }, (_, i) => rec(i, 860 + 10 * i));
const truthOf = (r: BacktestRecord): number | undefined => (r.row === 999 ? undefined : TRUE_USD);

describe('oracleCoverage', () => {
  it('fits [0.88, 1.13] on the calibration truths and counts the valued test sales inside it', () => {
    const test = [rec(100, 875), rec(101, 885), rec(102, 1000), rec(103, 1125), rec(104, 1135)];
    expect(oracleCoverage(cal, test, truthOf)).toEqual({ coverage80: 3 / 5, nCalibration: 30, nTest: 5 });
  });

  it('leaves out sales Tier 1 did not value and sales without a true value, as the model rows do', () => {
    const test = [rec(100, 875), rec(101, 885), rec(102, 1000, false), rec(999, 1000)];
    expect(oracleCoverage(cal, test, truthOf)).toEqual({ coverage80: 1 / 2, nCalibration: 30, nTest: 2 });
  });

  it('has no coverage below calibration_min_n (30) calibration truths', () => {
    expect(oracleCoverage(cal.slice(1), [rec(100, 1000)], truthOf)).toEqual({ coverage80: null, nCalibration: 29, nTest: 1 });
  });
});

describe('pooledOracleCoverage', () => {
  it('weights each banded segment by its test sales and skips segments without a band', () => {
    const parts = [{ coverage80: 0.75, nCalibration: 40, nTest: 400 }, { coverage80: 0.8, nCalibration: 300, nTest: 1600 }, { coverage80: null, nCalibration: 5, nTest: 9 }];
    expect(pooledOracleCoverage(parts)).toBeCloseTo((300 + 1280) / 2000, 12);
    expect(pooledOracleCoverage([{ coverage80: null, nCalibration: 5, nTest: 9 }])).toBeNull();
  });
});
