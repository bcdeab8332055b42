import { describe, expect, it } from 'vitest';
import { isAppError } from '../../src/errors/app-error.js';
import { scoreInventory } from '../../src/scoring/inventory.js';
import { blend, rawStrategyScore } from '../../src/scoring/raw-score.js';
import { resolveWeights } from '../../src/scoring/weights.js';
import { underwrite } from '../../src/underwriting/underwrite.js';
import { nullEconomics, type Economics } from '../../src/underwriting/types.js';
import { pointInput } from '../underwriting/fixtures.js';

const econ = (over: Partial<Economics>): Economics => ({ ...nullEconomics(), ...over });

describe('resolveWeights(raw)', () => {
  it('uses normalized defaults and replaces a strategy object whole', () => {
    const d = resolveWeights(undefined);
    expect(d.flip).toEqual({ margin: 0.6, velocity: 0.2, trend: 0.2 });
    // caller flip {margin: 0.5, trend: 0.5}: velocity 0; sum 1 → unchanged
    expect(resolveWeights({ flip: { margin: 0.5, trend: 0.5 } }).flip).toEqual({ margin: 0.5, velocity: 0, trend: 0.5 });
    // caller brrrr {ratio: 0.2, dscr: 0.6}: normalized to 0.25 / 0.75
    const b = resolveWeights({ brrrr: { ratio: 0.2, dscr: 0.6 } }).brrrr;
    expect(b.ratio).toBeCloseTo(0.25, 12);
    expect(b.dscr).toBeCloseTo(0.75, 12);
  });
  it.each([[{ flip: { margin: 1.2 } }], [{ flip: { speed: 1 } }], [{ house_hack: {} }], [{ hold: { coc: 0, risk: 0 } }], [{ brrrr: { ratio: -0.1 } }]])(
    'rejects %j with validation_failed', (raw) => {
      let code: string | null = null;
      try { resolveWeights(raw); } catch (e) { code = isAppError(e) ? e.code : 'other'; }
      expect(code).toBe('validation_failed');
    });
});

describe('rawStrategyScore(strategy, economics, reason, weights, ctx)', () => {
  const w = resolveWeights(undefined);
  it('blends the brrrr factors with the weights', () => {
    // ratio = 1 − 0.1 = 0.9; dscr = (1.5 − 1)/(2 − 1) = 0.5; 0.5·0.9 + 0.5·0.5 = 0.7
    const s = rawStrategyScore('brrrr', econ({ dscr: 1.5, cash_left_frac: 0.1 }), null, w);
    expect(s.raw).toBeCloseTo(0.7, 12);
    const dscrHeavy = rawStrategyScore('brrrr', econ({ dscr: 1.5, cash_left_frac: 0.1 }), null, resolveWeights({ brrrr: { ratio: 0, dscr: 1 } }));
    expect(dscrHeavy.raw).toBeCloseTo(0.5, 12);
  });
  it('drops a missing context factor and renormalizes', () => {
    // flip margin 0.15/0.30 = 0.5, velocity 1 − 6/12 = 0.5, no trend: (0.6·0.5 + 0.2·0.5)/0.8 = 0.5
    const e = econ({ profit_margin: 0.15, purchase_price: 100, max_offer: 110, hold_months: 6 });
    expect(rawStrategyScore('flip', e, null, w).raw).toBeCloseTo(0.5, 12);
    // with trend 1: 0.6·0.5 + 0.2·0.5 + 0.2·1 = 0.6
    expect(rawStrategyScore('flip', e, null, w, { trend: 1 }).raw).toBeCloseTo(0.6, 12);
  });
  it('is null for gated-out rows and unscored rows, never 0', () => {
    expect(rawStrategyScore('hold', econ({ cash_on_cash: 0.01, dscr: 1.5 }), null, w)).toMatchObject({ raw: null, null_reason: 'gated_out' });
    expect(rawStrategyScore('hold', nullEconomics(), 'range_only', w)).toMatchObject({ raw: null, null_reason: 'range_only' });
    expect(blend({ a: 0.5 }, { a: 0 })).toBeNull();
  });
});

describe('scoreInventory(rows, weights)', () => {
  it('ranks point rows, leaves range-only rows unscored and caps area rows', () => {
    const w = resolveWeights(undefined);
    const good = underwrite(pointInput({ strategy: 'brrrr', price: 140_000, rehab: 50_000, arv: 300_000, rentMonthly: 4_000, taxAnnual: 5_000 }));
    const ok = underwrite(pointInput({ strategy: 'brrrr', price: 190_000, rehab: 50_000, arv: 300_000, rentMonthly: 4_000, taxAnnual: 5_000 }));
    const range = underwrite(pointInput({ pointActionable: false, unscoredReason: 'range_only' }));
    const rows = scoreInventory([
      { id: 'good', basis: 'point', strategies: good.strategies },
      { id: 'ok', basis: 'point', strategies: ok.strategies },
      { id: 'range', basis: 'point', strategies: range.strategies },
      { id: 'area', basis: 'area_estimate', strategies: good.strategies },
    ], w, 'brrrr');
    const by = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(by.range.deal_score).toBeNull();
    expect(Object.values(by.range.strategy_scores).every((v) => v === null)).toBe(true);
    // brrrr population: good, ok, area(= good's raw) → ok lowest: (0 + 0.5)/3 = 16.67; good/area tie: (1 + 1)/3 = 66.67
    expect(by.ok.deal_score).toBeCloseTo(100 / 6, 9);
    expect(by.good.deal_score).toBeCloseTo(200 / 3, 9);
    expect(by.area.deal_score).toBe(65);
    expect(by.area.score_basis).toBe('area_estimate');
  });
});
