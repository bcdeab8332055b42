// The subject's own earlier sale as Tier-1 evidence (src/valuation/comps/prior-sale.ts): which sale counts, how the
// weights are fitted, and that a served value is the comps value moved by exactly the champion's weight — the same
// through the single valuation and the bulk path, and not at all under a table without weights; and the same for the
// as-is value with its own weights.
import { describe, expect, it } from 'vitest';
import { TIER1 } from '../../../src/registry/groups/tier1.js';
import { fitPriorSaleWeights, priorSaleFactor, priorSaleRow, type PriorSalePoint } from '../../../src/valuation/comps/prior-sale.js';
import { decideBulk } from '../../../src/valuation/bulk.js';
import { runBacktest } from '../../../src/valuation/calibration/backtest.js';
import { buildCalibrationTable, splitInTime } from '../../../src/valuation/calibration/table.js';
import { withPriorSaleFit } from '../../../src/valuation/calibration/prior-sale-fit.js';
import { valueProperty, type Decided } from '../../../src/valuation/value.js';
import type { Valuation } from '../../../src/contracts/valuation.js';
import type { ValuationContext } from '../../../src/valuation/value-context.js';
import { usePointEverywhere } from '../../support/scoring-corpus.js';

const fx = usePointEverywhere();

/** Parcels of the corpus with at least two sales, and their rows in day order. */
function resoldParcels(): Array<{ parcel: number; rows: number[] }> {
  const { offsets, rows } = fx.ctx.parcelSales;
  const out: Array<{ parcel: number; rows: number[] }> = [];
  for (let p = 0; p + 1 < offsets.length && out.length < 400; p++) if (offsets[p + 1] - offsets[p] >= 2) out.push({ parcel: p, rows: Array.from(rows.subarray(offsets[p], offsets[p + 1])) });
  return out;
}

describe('priorSaleRow', () => {
  it('is the latest arms-length sale at least prior_sale_min_gap_days before the as-of day', () => {
    const gap = TIER1.v.prior_sale_min_gap_days;
    const { saleDay } = fx.ctx.sales;
    const arms = fx.ctx.parcelSales.arms;
    let checked = 0;
    for (const { parcel, rows } of resoldParcels()) {
      const last = rows[rows.length - 1];
      for (const asOf of [saleDay[last] + 1, saleDay[last] + gap, saleDay[last] + gap + 1]) {
        const want = [...rows].reverse().find((r) => saleDay[r] <= asOf - gap && arms[r] === 1) ?? -1;
        expect(priorSaleRow(fx.ctx.sales, fx.ctx.parcelSales, arms, parcel, asOf)).toBe(want);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(priorSaleRow(fx.ctx.sales, fx.ctx.parcelSales, arms, -1, 30_000)).toBe(-1);
    expect(priorSaleRow(fx.ctx.sales, fx.ctx.parcelSales, arms, fx.ctx.parcelSales.offsets.length + 5, 30_000)).toBe(-1);
  });
});

describe('fitPriorSaleWeights', () => {
  const points = (w: number, n: number, group: 'renovated' | 'other'): PriorSalePoint[] =>
    Array.from({ length: n }, (_, k) => {
      const logGap = ((k % 41) - 20) / 40;
      return { group, logGap, logRatio: w * logGap + (((k * 7919) % 13) - 6) / 200 };
    });

  it('recovers the slope per group, bounded to [0, 1], and gives 0 below prior_sale_min_fit_n', () => {
    const min = TIER1.v.prior_sale_min_fit_n;
    const fit = fitPriorSaleWeights([...points(0.6, min + 200, 'renovated'), ...points(0.3, min + 200, 'other')]);
    expect(fit.weights.renovated).toBeCloseTo(0.6, 1);
    expect(fit.weights.other).toBeCloseTo(0.3, 1);
    expect(fit.n).toEqual({ renovated: min + 200, other: min + 200 });
    expect(fitPriorSaleWeights(points(1.7, min + 50, 'renovated')).weights.renovated).toBe(1);
    expect(fitPriorSaleWeights(points(-0.4, min + 50, 'renovated')).weights.renovated).toBe(0);
    expect(fitPriorSaleWeights(points(0.6, min - 1, 'renovated')).weights).toEqual({ renovated: 0, other: 0 });
  });

  it('moves by exp(weight × gap), and not at all without a fit or evidence', () => {
    const fit = { weights: { renovated: 0.8, other: 0.25 }, n: { renovated: 500, other: 500 } };
    expect(priorSaleFactor({ group: 'renovated', logGap: 0.1 }, fit)).toBeCloseTo(Math.exp(0.08), 12);
    expect(priorSaleFactor({ group: 'other', logGap: -0.4 }, fit)).toBeCloseTo(Math.exp(-0.1), 12);
    expect(priorSaleFactor({ group: 'other', logGap: -0.4 }, null)).toBe(1);
    expect(priorSaleFactor(null, fit)).toBe(1);
  });
});

/**
 * Parcels spread over the corpus, each valued once (valueProperty; a parcel it refuses is skipped) and through the
 * bulk path (`bulkOf` reads the figure the test compares), then handed to `check`.
 */
function eachValuedParcel(bulkOf: (d: Decided) => number | null, check: (v: Valuation, bulk: number | null | undefined, input: { parcelRow: number }) => void): void {
  const n = fx.ctx.subjects.parcels!.length;
  const inputs = Array.from({ length: 1500 }, (_, k) => ({ parcelRow: Math.floor((k * n) / 1500) }));
  const bulk = new Map<number, number | null>();
  decideBulk(inputs, fx.ctx, (k, d) => void (d instanceof Error || bulk.set(k, bulkOf(d))));
  inputs.forEach((input, k) => {
    let v;
    try {
      v = valueProperty(input, fx.ctx);
    } catch {
      return;
    }
    check(v, bulk.get(k), input);
  });
}

describe('a valued parcel with an earlier sale', () => {
  it('serves the comps value × exp(weight × gap), the same in the bulk path, and the comps value under a table without weights', () => {
    const noWeights: ValuationContext = { ...fx.ctx, calibration: { ...fx.ctx.calibration!, priorSale: undefined } };
    let moved = 0;
    eachValuedParcel((d) => d.evidence.tier1?.valueUsd ?? null, (v, bulk, input) => {
      const ps = v.arv.prior_sale;
      const served = v.artifact?.arv;
      if (!ps || !served) return;
      moved++;
      const w = fx.ctx.calibration!.priorSale!.weights[ps.condition_group];
      expect(ps.weight).toBe(w);
      expect(ps.factor).toBeCloseTo(Math.exp(w * ps.log_gap), 12);
      expect(Math.abs(ps.log_gap)).toBeLessThanOrEqual(TIER1.v.prior_sale_max_log_gap);
      const compsValue = served.value! / ps.factor;
      if (v.display?.outcome === 'point') expect(ps.comps_value).toBeCloseTo(compsValue, 6);
      else expect([ps.comps_value, ps.carried_value]).toEqual([null, null]); // no value of the property beside a range
      expect(bulk).toBeCloseTo(served.value!, 6);
      const plain = valueProperty(input, noWeights);
      expect(plain.arv.prior_sale?.weight).toBe(0);
      expect(plain.artifact?.arv?.value).toBeCloseTo(compsValue, 6);
      expect(plain.inputs_hash).not.toBe(v.inputs_hash);
    });
    expect(moved).toBeGreaterThan(20);
  });

  it('moves its as-is value (value, low, high) by the as-is weights, the same in the bulk path, and not without them', () => {
    const noWeights: ValuationContext = { ...fx.ctx, calibration: { ...fx.ctx.calibration!, priorSaleAsIs: undefined } };
    let moved = 0;
    eachValuedParcel((d) => d.asIs.asIs?.value ?? null, (v, bulk, input) => {
      const a = v.artifact?.as_is;
      const ps = a?.prior_sale;
      if (!a || !ps || a.value === null) return;
      moved++;
      const w = fx.ctx.calibration!.priorSaleAsIs!.weights[ps.condition_group];
      expect(ps.weight).toBe(w);
      expect(ps.factor).toBeCloseTo(Math.exp(w * ps.log_gap), 12);
      expect(ps.comps_value! * ps.factor).toBeCloseTo(a.value, 6); // the stratum's median × factor
      expect(ps.carried_value).toBeCloseTo(ps.price * ps.index_factor, 6);
      expect(v.value_as_is?.prior_sale).toEqual(ps); // shown beside every outcome
      expect(bulk).toBeCloseTo(a.value, 6);
      const plain = valueProperty(input, noWeights);
      expect(plain.artifact?.as_is?.prior_sale?.weight).toBe(0);
      expect(plain.artifact?.as_is?.value).toBeCloseTo(ps.comps_value!, 6);
      expect(plain.artifact?.as_is?.low! * ps.factor).toBeCloseTo(a.low!, 6);
      expect(plain.artifact?.as_is?.high! * ps.factor).toBeCloseTo(a.high!, 6);
      expect(plain.inputs_hash).not.toBe(v.inputs_hash);
    });
    expect(moved).toBeGreaterThan(20);
  });

  it('does not move an as-is value from a stated condition (the weights were fitted on values of unknown condition)', () => {
    let stated = 0;
    eachValuedParcel((d) => d.asIs.asIs?.value ?? null, (v, _bulk, input) => {
      if (!v.artifact?.as_is?.prior_sale) return;
      const dated = valueProperty({ ...input, condition: 'dated' }, fx.ctx);
      if (dated.artifact?.as_is?.as_is_stratum === 'all_conditions' || !dated.artifact?.as_is) return;
      stated++;
      expect(dated.artifact.as_is.prior_sale ?? null).toBeNull();
      const plain = valueProperty({ ...input, condition: 'dated' }, { ...fx.ctx, calibration: { ...fx.ctx.calibration!, priorSaleAsIs: undefined } });
      expect(dated.artifact.as_is.value).toBe(plain.artifact?.as_is?.value);
    });
    expect(stated).toBeGreaterThan(20);
  });
});

describe('the backtest', () => {
  it('fits the weights on the calibration half only, and every Tier-1 estimate of both halves carries them', () => {
    const munis = new Map(fx.store.getTracts().map((t) => [t.geoid, t.muni]));
    const bt = runBacktest(fx.ctx.sales, (g) => munis.get(g) ?? null);
    const { calibration, test } = splitInTime(bt.records);
    const comps = (r: (typeof bt.records)[number]) => r.compsValueUsd ?? r.estimateUsd;
    const refit = fitPriorSaleWeights(calibration.flatMap((r) => (r.estimateUsd !== null && r.priorSale ? [{ group: r.priorSale.group, logGap: r.priorSale.logGap, logRatio: Math.log(r.priceUsd / comps(r)!) }] : [])));
    expect(bt.priorSale).toEqual(refit);
    // the test corpus has fewer earlier sales per group than prior_sale_min_fit_n: weights 0, nothing moves
    expect(bt.priorSale.n.renovated + bt.priorSale.n.other).toBeGreaterThan(0);
    expect(bt.priorSale.n.renovated).toBeLessThan(TIER1.v.prior_sale_min_fit_n);
    expect(bt.priorSale.weights).toEqual({ renovated: 0, other: 0 });
    for (const r of [...calibration, ...test]) expect(r.compsValueUsd).toBeUndefined();
    // the as-is weights: fitted on every window sale's as-is value sold before the same split day
    const { splitDay } = splitInTime(bt.records);
    const asIsCal = bt.asIs.filter((r) => r.saleDay < splitDay && r.estimateUsd !== null && r.priorSale);
    expect(bt.priorSaleAsIs).toEqual(fitPriorSaleWeights(asIsCal.map((r) => ({ group: r.priorSale!.group, logGap: r.priorSale!.logGap, logRatio: Math.log(r.priceUsd / comps(r)!) }))));
    expect(bt.asIs.length).toBeGreaterThan(bt.records.length); // every condition, not only the renovated holdout
    const table = buildCalibrationTable(bt.records, { createdAt: '2026-11-02T00:00:00Z', snapshotId: 's', modelVersion: 'm', registryVersion: 'r', startDay: bt.startDay, endDay: bt.endDay, priorSale: bt.priorSale, priorSaleAsIs: bt.priorSaleAsIs });
    expect(table.priorSale).toEqual(bt.priorSale);
    expect(table.priorSaleAsIs).toEqual(bt.priorSaleAsIs);
  }, 300_000);
});

describe('withPriorSaleFit', () => {
  it('fits on the sales before the split day only and moves both halves (and the ARV rows of the all-sales scoring) by it', () => {
    const min = TIER1.v.prior_sale_min_fit_n;
    const rec = (k: number, day: number, w: number) => {
      const logGap = ((k % 21) - 10) / 40;
      return { row: k, saleDay: day, priceUsd: 100_000 * Math.exp(w * logGap), segment: 'sfh_city', estimateUsd: 100_000, nComps: 8, ladderStep: 1 as const, fsdPct: 10, reason: null, priorSale: { group: 'renovated' as const, logGap } };
    };
    // calibration half: the price follows 0.5 of the gap; test half: 0.9 (must not leak into the fit)
    const records = [...Array.from({ length: min + 100 }, (_, k) => rec(k, 100 + k, 0.5)), ...Array.from({ length: min + 101 }, (_, k) => rec(k, 10_000 + k, 0.9))];
    // as-is values of every sale (rows offset by 1e6): the price follows 0.7 of the gap before the split, 0.2 after
    const asIs = [...Array.from({ length: min + 100 }, (_, k) => rec(1e6 + k, 100 + k, 0.7)), ...Array.from({ length: min + 101 }, (_, k) => rec(1e6 + k, 10_000 + k, 0.2))].map((r) => ({ ...r, kind: 'as_is' as const }));
    const kindOf = (row: number) => (row % 2 === 0 ? ('as_is' as const) : ('arv' as const));
    const bt = withPriorSaleFit({ records, arvScored: records.map((r) => ({ ...r, kind: 'arv' as const })), asIs, startDay: 0, endDay: 20_000 }, kindOf);
    expect(bt.priorSale.weights.renovated).toBeCloseTo(0.5, 10);
    expect(bt.priorSale.n.renovated).toBe(min + 100);
    expect(bt.priorSaleAsIs.weights.renovated).toBeCloseTo(0.7, 10);
    expect(bt.priorSaleAsIs.n.renovated).toBe(min + 100);
    for (const [i, r] of bt.records.entries()) {
      expect(r.compsValueUsd ?? (records[i].priorSale.logGap === 0 ? 100_000 : null)).toBe(100_000);
      expect(r.estimateUsd).toBeCloseTo(100_000 * Math.exp(0.5 * records[i].priorSale.logGap), 6);
      expect(bt.scored![i].estimateUsd).toBe(r.estimateUsd);
    }
    for (const [i, r] of bt.asIs.entries()) expect(r.estimateUsd).toBeCloseTo(100_000 * Math.exp(0.7 * asIs[i].priorSale.logGap), 6);
    // scored: every ARV row, then the as-is rows of as-is kind only
    const scoredAsIs = bt.scored!.slice(records.length);
    expect(scoredAsIs.map((s) => s.row)).toEqual(asIs.filter((s) => kindOf(s.row) === 'as_is').map((s) => s.row));
    expect(scoredAsIs.every((s) => s.kind === 'as_is')).toBe(true);
    expect(withPriorSaleFit({ records, arvScored: [], asIs, startDay: 0, endDay: 20_000 }).scored).toBeNull();
  });
});
