import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ECONOMICS_NUMBER_KEYS, FINANCING_TYPES, STRATEGIES, type Economics } from '../../src/underwriting/types.js';
import { underwrite, type UnderwriteInput } from '../../src/underwriting/underwrite.js';
import { pointInput } from './fixtures.js';

function assertNoEconomics(e: Economics): void {
  for (const k of ECONOMICS_NUMBER_KEYS) expect(e[k], k).toBeNull();
  expect(e.cashflow).toBeNull();
  expect(e.max_offer_basis).toBeNull();
  expect(e.fha_self_sufficiency_pass).toBeNull();
}

describe('underwrite() when the valuation is not a point', () => {
  it.each([['range_only'], ['area_estimate'], ['suppressed'], ['stale']])('%s: every economics field null with unscored_reason', (reason) => {
    const r = underwrite(pointInput({ pointActionable: false, unscoredReason: reason }));
    expect(r.scored).toBe(false);
    expect(r.unscored_reason).toBe(reason);
    assertNoEconomics(r.economics);
    for (const s of STRATEGIES) {
      assertNoEconomics(r.strategies[s].economics);
      expect(r.strategies[s].unscored_reason).toBe(reason);
    }
    expect(r.s8_gap_monthly).toBeNull();
  });

  it('property: for arbitrary inputs with pointActionable=false, no numeric economics field is non-null', () => {
    const num = fc.option(fc.double({ min: 0, max: 5e6, noNaN: true }), { nil: null });
    const arb = fc.record({
      unscoredReason: fc.option(fc.constantFrom('range_only', 'thin_comps', 'area_estimate', 'suppressed'), { nil: null }),
      arv: num, asIsValue: num, price: num, rentMonthly: num, rentS8: num, taxAnnual: num, rehab: num,
      units: fc.integer({ min: 1, max: 4 }),
      strategy: fc.constantFrom(...STRATEGIES),
      financing: fc.constantFrom(...FINANCING_TYPES),
      horizonYears: fc.integer({ min: 1, max: 30 }),
      county: fc.constantFrom('cook' as const, 'lake' as const, 'unknown' as const),
      isChicago: fc.boolean(), ownerOccupied: fc.boolean(), mgmtSelf: fc.boolean(),
      hoa: num,
    });
    fc.assert(fc.property(arb, (a) => {
      const r = underwrite({ ...a, pointActionable: false } as UnderwriteInput);
      const all = [r.economics, ...STRATEGIES.map((s) => r.strategies[s].economics)];
      const leaked = all.some((e) => ECONOMICS_NUMBER_KEYS.some((k) => e[k] !== null) || e.cashflow !== null);
      return !leaked && r.unscored_reason !== null && r.s8_gap_monthly === null;
    }), { numRuns: 300 });
  });
});

describe('underwrite() point-actionable but missing an input', () => {
  it('names the missing input instead of inventing it', () => {
    expect(underwrite(pointInput({ price: null })).unscored_reason).toBe('price_required');
    expect(underwrite(pointInput({ rehab: null })).unscored_reason).toBe('rehab_unknown');
    expect(underwrite(pointInput({ taxAnnual: null })).unscored_reason).toBe('tax_unknown');
    assertNoEconomics(underwrite(pointInput({ rehab: null, strategy: 'brrrr' })).economics);
    for (const s of ['flip', 'brrrr', 'house_hack'] as const) assertNoEconomics(underwrite(pointInput({ rehab: null })).strategies[s].economics);
  });
  it('without a rehab figure a hold is computed at the purchase price alone, shown but never scored', () => {
    // pointInput: 2 units at $3,000/mo, price $300k; the same deal with rehab 0 gives the same NOI, DSCR and cash-on-cash
    const unknown = underwrite(pointInput({ rehab: null }));
    const zero = underwrite(pointInput({ rehab: 0 }));
    expect(unknown.unscored_reason).toBe('rehab_unknown');
    expect(unknown.economics.rehab_basis).toBe('excluded_unknown');
    for (const k of ['noi', 'dscr', 'cash_on_cash', 'cash_invested'] as const) expect(unknown.economics[k]).toBe(zero.economics[k]);
    expect(unknown.economics.economics_factor).toBeNull();
    expect(zero.economics.rehab_basis).toBe('included');
  });
  it('uses rehab_budget and purchase_price from the caller when the valuation lacks them', () => {
    const r = underwrite(pointInput({ price: null, rehab: null, assumptions: { purchase_price: 300_000, rehab_budget: 0 } }));
    expect(r.unscored_reason).toBeNull();
    expect(r.economics.noi).toBeCloseTo(15_770.4, 2);
  });
  it('flags rentals without a rent basis as rent_unknown', () => {
    const r = underwrite(pointInput({ rentMonthly: null }));
    expect(r.unscored_reason).toBe('rent_unknown');
    expect(r.economics.noi).toBeNull();
    expect(r.strategies.flip.unscored_reason).toBeNull();
  });
});
