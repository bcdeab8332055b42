// The real sample's own noise and the spread of the real neighborhood medians (realism-noise.ts), and the real lower
// tail read off the percentiles (anchor-distress.ts), on distributions whose answers are known in closed form.
import { describe, expect, it } from 'vitest';
import { realBetweenNbhdIqr, realIqrRelSe, realTailRelSe } from '../../../src/ingest/generate/realism-noise.js';
import { realLowerTail } from '../../../src/ingest/generate/anchor-distress.js';
import type { AreaDispersion } from '../../../src/reference/types.js';

/** An area whose centred ln prices are uniform on [-a, a]: percentile k at -a + 2a k / 100. */
function uniformArea(a: number, n: number): AreaDispersion {
  const q = Array.from({ length: 99 }, (_, k) => -a + (2 * a * (k + 1)) / 100);
  return { pinArea: '99', year: 2019, n, medianLog: 12, iqrLog: a, p90p10Log: 1.6 * a, tailShare: Math.max(0, (a - Math.log(2)) / a), centeredLogQuantiles: q };
}

describe('the real sample noise', () => {
  it('IQR: a uniform sample of n has relative standard error 1 / sqrt(n) (quantile asymptotics)', () => {
    for (const n of [200, 1500]) expect(realIqrRelSe(uniformArea(1, n))).toBeCloseTo(1 / Math.sqrt(n), 3);
  });

  it('tail share: binomial', () => {
    const d = uniformArea(1, 900);
    expect(realTailRelSe(d)).toBeCloseTo(Math.sqrt((d.tailShare * (1 - d.tailShare)) / 900) / d.tailShare, 4);
  });

  it('real lower tail: the uniform CDF at -ln 2, and the ends', () => {
    expect(realLowerTail(uniformArea(1, 500).centeredLogQuantiles)).toBeCloseTo((1 - Math.log(2)) / 2, 3);
    expect(realLowerTail(uniformArea(0.5, 500).centeredLogQuantiles)).toBe(0.005); // -ln 2 below the first percentile
  });
});

describe('realBetweenNbhdIqr', () => {
  it('count-weighted IQR of neighborhood medians around the area-year median, years pooled, other areas and years left out', () => {
    const areaOf = new Map([['10010', '01'], ['10020', '01'], ['10030', '01'], ['10040', '01'], ['20010', '02']]);
    const rows = [
      { townNbhd: '10010', year: 2021, count: 10, median: 100_000 },
      { townNbhd: '10020', year: 2021, count: 10, median: 200_000 },
      { townNbhd: '10030', year: 2021, count: 10, median: 400_000 },
      { townNbhd: '10040', year: 2021, count: 10, median: 800_000 },
      { townNbhd: '10010', year: 2019, count: 500, median: 1_000 }, // outside the years
      { townNbhd: '20010', year: 2021, count: 10, median: 300_000 }, // one neighborhood: no spread to speak of
    ];
    const out = realBetweenNbhdIqr(rows, areaOf, [2021, 2022]);
    // centred on the weighted median (the second value, 200k): ln(1/2), 0, ln 2, ln 4; quartiles at ln(1/2) and ln 2
    expect(out.get('01')).toBeCloseTo(2 * Math.log(2), 4);
    expect(out.has('02')).toBe(false);
  });
});
