// COD / PRD / PRB on the real CCAO sample (test/fixtures/ccao-sample, 979 sales, Evanston and New Trier) against
// (a) an independent naive computation in this file and (b) the values published by ccao-data/assessr and assesspy.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cod, prb, prd, ratioStudyByGroup } from '../../src/valuation/calibration/metrics.js';

type Row = { estimate: number; price: number; group: string };
const rows: Row[] = readFileSync(new URL('../fixtures/ccao-sample/ccao_sample.csv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [estimate, price, group] = line.split(',');
    return { estimate: Number(estimate), price: Number(price), group };
  });
const E = rows.map((r) => r.estimate);
const P = rows.map((r) => r.price);

/** Naive reference: median by picking from a fully sorted copy. */
function naiveMedian(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
}

/** Naive reference: everything from explicit sums; PRB from the 2×2 normal equations solved by Cramer's rule. */
function naive(es: number[], ps: number[]): { cod: number; prd: number; prb: number } {
  const n = es.length;
  const r = es.map((e, i) => e / ps[i]);
  const med = naiveMedian(r);
  let absDev = 0, sumR = 0, sumRP = 0, sumP = 0;
  for (let i = 0; i < n; i++) { absDev += Math.abs(r[i] - med); sumR += r[i]; sumRP += r[i] * ps[i]; sumP += ps[i]; }
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    const x = Math.log(0.5 * (es[i] / med) + 0.5 * ps[i]) / Math.LN2;
    const y = r[i] / med - 1;
    sx += x; sy += y; sxx += x * x; sxy += x * y;
  }
  const det = n * sxx - sx * sx;
  return { cod: (100 * (absDev / n)) / med, prd: sumR / n / (sumRP / sumP), prb: (n * sxy - sx * sy) / det };
}

describe('ratio statistics on the CCAO sample', () => {
  it('holds 979 sales in two townships', () => {
    expect(rows).toHaveLength(979);
    expect(new Set(rows.map((r) => r.group))).toEqual(new Set(['Evanston', 'New Trier']));
  });

  it('agree with the naive reference computation (whole sample and per township)', () => {
    const groups = [rows, rows.filter((r) => r.group === 'Evanston'), rows.filter((r) => r.group === 'New Trier')];
    for (const g of groups) {
      const es = g.map((r) => r.estimate);
      const ps = g.map((r) => r.price);
      const ref = naive(es, ps);
      expect(cod(es, ps)).toBeCloseTo(ref.cod, 9);
      expect(prd(es, ps)).toBeCloseTo(ref.prd, 12);
      expect(prb(es, ps)!).toBeCloseTo(ref.prb, 9);
    }
  });

  it('match the published package values', () => {
    // ccao-data/assesspy tests/test_metrics.py and assessr tests: COD 17.81456901196891, PRD 1.0484192615223522
    // (both packages, untrimmed, same 979 rows). PRB: assessr's test expects 0.0024757 (tolerance 0.02); the current
    // assesspy test lists 0.000947 with rel 0.02 for what is documented as the same formula — unresolved, so only
    // the assessr value is asserted here.
    expect(cod(E, P)).toBeCloseTo(17.81456901196891, 9);
    expect(prd(E, P)).toBeCloseTo(1.0484192615223522, 12);
    expect(Math.abs(prb(E, P)! - 0.0024757) / 0.0024757).toBeLessThan(0.02);
  });

  it('IAAO-trimmed per-township study: 3 × IQR trim matches a naive count; both townships reportable (n ≥ 30)', () => {
    const study = ratioStudyByGroup(rows);
    expect(Object.keys(study)).toEqual(['Evanston', 'New Trier']);
    for (const [town, n] of [['Evanston', 469], ['New Trier', 510]] as const) {
      const r = rows.filter((x) => x.group === town).map((x) => x.estimate / x.price).sort((a, b) => a - b);
      // type-7 quartile: h = (n − 1)p, interpolate between s[floor h] and s[floor h + 1]
      const q = (p: number) => { const h = (r.length - 1) * p; const f = Math.floor(h); return r[f] + (h - f) * (r[Math.min(f + 1, r.length - 1)] - r[f]); };
      const iqr = q(0.75) - q(0.25);
      const kept = r.filter((x) => x >= q(0.25) - 3 * iqr && x <= q(0.75) + 3 * iqr).length;
      expect(study[town]).toMatchObject({ n, nTrimmed: kept, reportable: true });
      expect(kept).toBeLessThan(n); // this sample has tails beyond 3 × IQR in both townships
    }
  });
});
