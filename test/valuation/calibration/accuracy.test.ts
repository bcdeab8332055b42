// The all-sales accuracy rows on hand-built scored sales: n = valued + refused, refused sales in the shares'
// denominators, PPE20, coverage and width over the test half only, and the grouping by kind and segment.
import { describe, expect, it } from 'vitest';
import type { ScoredSale } from '../../../src/valuation/calibration/all-sales.js';
import { accuracyRow, accuracyRows, asIsBands, servedOf, type Served } from '../../../src/valuation/calibration/accuracy.js';
import { baselineRows } from '../../../src/valuation/calibration/baselines.js';
import { ppe20 } from '../../../src/valuation/calibration/metrics.js';

const sale = (saleDay: number, priceUsd: number, estimateUsd: number | null, kind: ScoredSale['kind'] = 'arv', segment = 'sfh_city'): ScoredSale => ({
  row: saleDay, saleDay, priceUsd, segment, kind, estimateUsd, nComps: estimateUsd === null ? 0 : 5, ladderStep: estimateUsd === null ? null : 1, fsdPct: null, reason: estimateUsd === null ? 'thin' : null,
});

describe('PPE20', () => {
  it('ratios 0.9, 1.0, 1.2, 0.75 → |error| ≤ 20% inclusive for 3 of 4', () => {
    expect(ppe20([90, 100, 120, 75], [100, 100, 100, 100])).toBe(0.75);
  });
});

describe('accuracy row', () => {
  // Days 1-2 calibration half, 3-6 test half (split day 3). Test: two valued (ratio 1.0 and 1.3), two refused.
  const sales = [sale(1, 100, 95), sale(2, 100, 105), sale(3, 100, 100), sale(4, 100, 130), sale(5, 100, null), sale(6, 100, null)];
  const served = (s: ScoredSale): Served => (s.estimateUsd === null ? { bounds: null, outcome: 'suppressed' } : { bounds: { lo: 0.9, hi: 1.1 }, outcome: s.saleDay === 3 ? 'point' : 'range' });
  const row = accuracyRow('arv', 'sfh_city', sales, 3, served);

  it('n = valued + refused; point figures over the 4 valued sales (ratios .95, 1.05, 1.0, 1.3)', () => {
    expect([row.n, row.valued, row.refused]).toEqual([6, 4, 2]);
    expect(row.mdape).toBeCloseTo(0.05, 12); // |errors| .05 .05 0 .3 → median .05
    expect(row.ppe10).toBe(0.75);
    expect(row.ppe20).toBe(0.75);
  });

  it('coverage and width over the valued test sales; shares over every test sale, refused ones suppressed', () => {
    // price 100 in [90, 110] for estimate 100 (yes) and in [117, 143] for estimate 130 (no)
    expect(row.nCoverage).toBe(2);
    expect(row.coverage80).toBe(0.5);
    expect(row.meanWidth80).toBeCloseTo(0.2, 12);
    expect(row.nOutcome).toBe(4);
    expect([row.pointShare, row.rangeShare, row.suppressedShare]).toEqual([0.25, 0.25, 0.5]);
  });

  it('rows per kind and segment plus `all`, overall = both kinds', () => {
    const mixed = [...sales, sale(7, 200, 180, 'as_is', 'sfh_suburb'), sale(8, 200, null, 'as_is', 'sfh_city')];
    const rows = accuracyRows(mixed, 3, served);
    const key = (r: { kind: string; group: string }) => `${r.kind}/${r.group}`;
    expect(rows.map(key)).toEqual(['arv/sfh_city', 'arv/all', 'as_is/sfh_city', 'as_is/sfh_suburb', 'as_is/all', 'overall/sfh_city', 'overall/sfh_suburb', 'overall/all']);
    const overall = rows.find((r) => key(r) === 'overall/all')!;
    expect(overall.n).toBe(8);
    expect(overall.refused).toBe(3);
    const b = baselineRows('naive', mixed, (s) => (s.saleDay % 2 === 0 ? s.priceUsd : null));
    const ball = b.find((r) => r.kind === 'overall' && r.group === 'all')!;
    expect([ball.n, ball.refused, ball.mdape]).toEqual([4, 4, 0]);
  });
});

describe('served intervals', () => {
  it('a refused sale is suppressed; an as-is value is a point with its segment band, else the pooled band', () => {
    const cal = Array.from({ length: 30 }, (_, k) => sale(k, 100 + k, 100, 'as_is'));
    const bands = asIsBands(cal);
    expect(bands.get('sfh_city')).toEqual(bands.get('all'));
    expect(servedOf(sale(50, 100, null, 'as_is'), null, bands).outcome).toBe('suppressed');
    const s = servedOf(sale(50, 100, 100, 'as_is', 'mf2_4_city'), null, bands);
    expect(s.outcome).toBe('point');
    expect(s.bounds).toEqual(bands.get('all'));
    // 30 ratios 1.00..1.29: ranks floor(31·0.1) = 3 and ceil(31·0.9) = 28 → 1.02 and 1.27
    expect(bands.get('all')!.lo).toBeCloseTo(1.02, 12);
    expect(bands.get('all')!.hi).toBeCloseTo(1.27, 12);
  });

  it('an as-is value its earlier sale moved takes its own class band when the class has enough sales', () => {
    const moved = (k: number) => ({ ...sale(k, 100 + (k % 10), 100, 'as_is'), compsValueUsd: 90 }); // ratios 1.00..1.09
    const unmoved = Array.from({ length: 30 }, (_, k) => sale(100 + k, 100 + 2 * k, 100, 'as_is')); // ratios 1.00..1.58
    const bands = asIsBands([...unmoved, ...Array.from({ length: 30 }, (_, k) => moved(k))]);
    expect(bands.get('sfh_city+prior')).toEqual(asIsBands(Array.from({ length: 30 }, (_, k) => moved(k))).get('all'));
    expect(bands.get('sfh_city+prior')!.hi).toBeLessThan(bands.get('sfh_city')!.hi);
    expect(servedOf(moved(200), null, bands).bounds).toEqual(bands.get('sfh_city+prior'));
    expect(servedOf(sale(200, 100, 100, 'as_is'), null, bands).bounds).toEqual(bands.get('sfh_city'));
    // the segment's band counts each sale once (an unmoved sale's class is its segment)
    expect(bands.get('sfh_city')).toEqual(asIsBands([...unmoved, ...Array.from({ length: 30 }, (_, k) => moved(k))]).get('all'));
    // a class under calibration_min_n falls back to its segment's band
    const few = asIsBands([...unmoved, moved(0)]);
    expect(few.has('sfh_city+prior')).toBe(false);
    expect(servedOf(moved(200), null, few).bounds).toEqual(few.get('sfh_city'));
  });

  it('an ARV sale without any calibration table is a range without interval (serving is range-only then)', () => {
    expect(servedOf(sale(50, 100, 100), null, new Map())).toEqual({ bounds: null, outcome: 'range' });
  });
});
