// Backtest and ratio-study metrics on tiny hand-computed vectors (derivations in comments), plus input checks.
import { describe, expect, it } from 'vitest';
import { cod, confidenceP10, intervalCoverage, iqrKeepMask, mdape, meanRelativeWidth, ppe, prb, prd, ratioStudy, ratioStudyByGroup } from '../../../src/valuation/calibration/metrics.js';

// Four sales at price 100 with estimates 90, 100, 120, 80 → ratios 0.9, 1.0, 1.2, 0.8.
const E4 = [90, 100, 120, 80];
const P4 = [100, 100, 100, 100];

describe('accuracy metrics', () => {
  it('MdAPE: |ratio − 1| = 0.1, 0, 0.2, 0.2 → median (0.1 + 0.2)/2 = 0.15', () => {
    expect(mdape(E4, P4)).toBeCloseTo(0.15, 12);
  });

  it('PPE10 counts |error| ≤ 10% inclusively: 0.9 and 1.0 → 2/4; confidence_p10 = 50', () => {
    expect(ppe(E4, P4)).toBe(0.5);
    expect(confidenceP10(E4, P4)).toBe(50);
  });

  it('interval coverage is inclusive: prices 100, 110, 111 in [90, 110] → 2/3; relative width 20/100 = 0.2', () => {
    expect(intervalCoverage([90, 90, 90], [110, 110, 110], [100, 110, 111])).toBeCloseTo(2 / 3, 12);
    expect(meanRelativeWidth([90, 80], [110, 120], [100, 100])).toBeCloseTo((0.2 + 0.4) / 2, 12);
  });
});

describe('IAAO ratio statistics', () => {
  it('COD: median ratio (0.9 + 1.0)/2 = 0.95; mean |r − 0.95| = (0.05+0.05+0.25+0.15)/4 = 0.125 → 100·0.125/0.95', () => {
    expect(cod(E4, P4)).toBeCloseTo((100 * 0.125) / 0.95, 10); // 13.1579
  });

  it('PRD: ratios 1 and 1.5 → mean 1.25; Σe/Σp = 400/300 → 1.25 / 1.3333 = 0.9375', () => {
    expect(prd([100, 300], [100, 200])).toBeCloseTo(0.9375, 12);
    expect(prd(E4, P4)).toBeCloseTo(1, 12); // equal prices: weighted mean = mean
  });

  it('PRB: OLS slope of (r − med)/med on log2((e/med + p)/2)', () => {
    // e = 100, 300, 500; p = 100, 200, 400 → r = 1, 1.5, 1.25; med = 1.25; y = −0.2, 0.2, 0
    // e/med = 80, 240, 400 → proxies (80+100)/2 = 90, (240+200)/2 = 220, (400+400)/2 = 400
    // x = log2(90), log2(220), log2(400); slope = Σ(x−x̄)y / Σ(x−x̄)² (ȳ = 0) = 0.2·(log2 220 − log2 90) / Σ(x−x̄)²
    const x = [Math.log2(90), Math.log2(220), Math.log2(400)];
    const xbar = (x[0] + x[1] + x[2]) / 3;
    const sxx = x.reduce((a, v) => a + (v - xbar) ** 2, 0);
    expect(prb([100, 300, 500], [100, 200, 400])).toBeCloseTo((0.2 * (x[1] - x[0])) / sxx, 12); // ≈ 0.10993
    expect(prb([100, 300, 500], [100, 200, 400])).toBeCloseTo(0.10993, 4);
  });

  it('PRB is null when every value proxy is the same', () => {
    expect(prb([100, 100], [100, 100])).toBeNull();
  });
});

describe('quantiles and trimming', () => {
  it('3 × IQR trim: Q1 0.925, Q3 1.175 (h = 3.75), IQR 0.25 → fences 0.175 and 1.925: 3.0 is dropped', () => {
    expect(iqrKeepMask([0.8, 0.9, 1.0, 1.1, 1.2, 3.0])).toEqual([true, true, true, true, true, false]);
  });

  it('ratioStudy trims before the statistics and flags groups under 30 sales', () => {
    const s = ratioStudy([80, 90, 100, 110, 120, 300], [100, 100, 100, 100, 100, 100]);
    expect(s).toMatchObject({ n: 6, nTrimmed: 5, reportable: false, medianRatio: 1 });
    // trimmed ratios 0.8..1.2: mean |r − 1| = (0.2+0.1+0+0.1+0.2)/5 = 0.12 → COD 12
    expect(s.cod).toBeCloseTo(12, 10);
    expect(s.codMet).toBe(true);
    expect(ratioStudy([80, 90, 100, 110, 120, 300], [100, 100, 100, 100, 100, 100], { trim: false }).nTrimmed).toBe(6);
  });

  it('ratioStudyByGroup studies each group separately, keys sorted', () => {
    const rows = [...E4.map((e) => ({ estimate: e, price: 100, group: 'b' })), { estimate: 100, price: 100, group: 'a' }, { estimate: 110, price: 100, group: 'a' }];
    const out = ratioStudyByGroup(rows, { trim: false });
    expect(Object.keys(out)).toEqual(['a', 'b']);
    expect(out.b.cod).toBeCloseTo((100 * 0.125) / 0.95, 10);
    expect(out.a.n).toBe(2);
  });
});

describe('input checks', () => {
  it.each([
    ['empty vectors', [], []],
    ['different lengths', [1, 2], [1]],
    ['a zero price', [1], [0]],
    ['a negative estimate', [-1], [1]],
    ['a NaN', [Number.NaN], [1]],
  ])('%s → validation_failed', (_label, e, p) => {
    expect(() => cod(e as number[], p as number[])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
