// The report page's figures against bins worked out by hand on report-fixture.ts.
import { describe, expect, it } from 'vitest';
import { coverageByStep, errorDistribution, errorEdges, reliabilityOf, reportFigures, wilsonInterval } from '../../../src/valuation/calibration/report-figures.js';
import { fixtureTable, fixtureTest } from './report-fixture.js';

describe('reliability of confidence_p10', () => {
  const rel = reliabilityOf(fixtureTable(), fixtureTest());

  it('places each valued test sale at the confidence_p10 serving gives it (class row, else segment row) and bins by 5 points', () => {
    // mf2_4_city (40): 1.0, 1.0 hit, 1.5 misses → 2/3; sfh_city step2 → segment row 72: 1.0 hit, 0.8 misses → 1/2;
    // sfh_city/step1 (85): 1.05, 0.95, 1.0 hit, 1.2 misses → 3/4.
    expect(rel.bins.map((b) => [b.lo, b.hi, b.n, b.meanPredicted])).toEqual([[40, 45, 3, 40], [70, 75, 2, 72], [85, 90, 4, 85]]);
    expect(rel.bins.map((b) => b.observed)).toEqual([(100 * 2) / 3, 50, 75]);
    expect(rel.points).toEqual([
      { key: 'mf2_4_city', predicted: 40, n: 3, observed: (100 * 2) / 3 },
      { key: 'sfh_city', predicted: 72, n: 2, observed: 50 },
      { key: 'sfh_city/step1', predicted: 85, n: 4, observed: 75 },
    ]);
  });

  it('counts the valued sale of a segment with neither a row nor a fallback as unrated; unvalued sales not at all', () => {
    expect(rel.nRated).toBe(9);
    expect(rel.nUnrated).toBe(1);
  });

  it('the bins carry 95% Wilson intervals (3 of 4: 0.3006–0.9544)', () => {
    const b = rel.bins[2];
    expect(b.ciLo).toBeCloseTo(30.06, 2);
    expect(b.ciHi).toBeCloseTo(95.44, 2);
    const all = wilsonInterval(5, 5, 1.96);
    expect(all.hi).toBe(1);
    expect(all.lo).toBeCloseTo(0.5655, 4);
  });
});

describe('coverage per ladder step', () => {
  it('scores each sale of a calibrated segment under its own row (class or segment); segments without a row are left out', () => {
    // price / estimate: step1 0.952, 1.053, 0.833, 1 all in 0.8–1.25; step2 1 in, 1.25 out of 0.9–1.1; step3 1, 1 in, 0.667 out of 0.7–1.3.
    expect(coverageByStep(fixtureTable(), fixtureTest())).toEqual([
      { group: 'step1', n: 4, covered: 4, coverage80: 1 },
      { group: 'step2', n: 2, covered: 1, coverage80: 0.5 },
      { group: 'step3', n: 3, covered: 2, coverage80: 2 / 3 },
    ]);
  });
});

describe('signed log error distribution', () => {
  it('counts [lo, hi) bins with the ends beyond the edges', () => {
    const d = errorDistribution('g', [-0.2, -0.1, -0.05, 0, 0.049, 0.1, 0.3], [-0.1, -0.05, 0, 0.05, 0.1]);
    expect(d.counts).toEqual([1, 1, 2, 0]);
    expect([d.below, d.above, d.n]).toEqual([1, 2, 7]);
    expect(d.quantiles.find((q) => q.p === 0.5)!.value).toBe(0);
  });

  it('default edges run -0.6..0.6 by 0.05, exactly', () => {
    const e = errorEdges();
    expect(e).toHaveLength(25);
    expect([e[0], e[12], e[13], e[24]]).toEqual([-0.6, 0, 0.05, 0.6]);
  });

  it('per segment (sorted) and overall, over valued sales only', () => {
    const f = reportFigures(fixtureTable(), fixtureTest());
    expect(f.errors.groups.map((g) => [g.group, g.n])).toEqual([['condo_city', 1], ['mf2_4_city', 3], ['sfh_city', 6], ['overall', 10]]);
    const mf = f.errors.groups[1];
    expect(mf.quantiles.find((q) => q.p === 0.5)!.value).toBe(0);
    expect(mf.counts.reduce((a, b) => a + b, 0) + mf.below + mf.above).toBe(3);
    expect(mf.counts[12]).toBe(2); // ln 1 = 0 falls in [0, 0.05)
    expect(mf.above).toBe(0); // ln 1.5 = 0.405 is inside
    expect(mf.counts[Math.floor((Math.log(1.5) + 0.6) / 0.05)]).toBe(1);
  });
});
