import { describe, expect, it } from 'vitest';
import { isAppError } from '../../src/errors/app-error.js';
import { parseCustomAssumptions } from '../../src/underwriting/assumptions.js';
import { underwrite } from '../../src/underwriting/underwrite.js';
import { pointInput } from './fixtures.js';

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    return isAppError(e) ? e.code : 'not_app_error';
  }
}

describe('parseCustomAssumptions(raw)', () => {
  it('accepts every spec key within its bounds', () => {
    const ok = { purchase_price: 1, rehab_budget: 0, rate: 100, down_pct: 1, rent_override: 0, financing_type: 'dscr_loan', hold_months: 0 };
    expect(parseCustomAssumptions(ok)).toEqual(ok);
    expect(parseCustomAssumptions(undefined)).toEqual({});
  });
  it.each([
    ['extra key', { mgmt_fee: 0.1 }],
    ['purchase_price 0', { purchase_price: 0 }],
    ['negative rehab', { rehab_budget: -1 }],
    ['rate 0', { rate: 0 }],
    ['rate above 100', { rate: 100.01 }],
    ['down_pct above 1', { down_pct: 1.01 }],
    ['negative rent_override', { rent_override: -5 }],
    ['unknown financing', { financing_type: 'seller_carry' }],
    ['fractional hold_months', { hold_months: 2.5 }],
    ['string number', { rate: '7' }],
  ])('rejects %s with validation_failed', (_name, raw) => {
    expect(codeOf(() => parseCustomAssumptions(raw))).toBe('validation_failed');
  });
});

describe('underwrite() assumptions block', () => {
  it('echoes caller values and every default used', () => {
    const r = underwrite(pointInput({ assumptions: { rate: 6, down_pct: 0.3, hold_months: 2, purchase_price: 280_000 } }));
    const a = r.assumptions;
    expect(a.caller_supplied).toEqual(['down_pct', 'hold_months', 'purchase_price', 'rate']);
    expect(a.rate_pct).toBe(6);
    expect(a.down_pct).toBe(0.3);
    expect(a.hold_months).toBe(2);
    expect(a.purchase_price).toBe(280_000);
    expect(a.purchase_price_source).toBe('custom_assumptions');
    expect(a.financing_type).toBe('conventional_investor');
    expect(a.vacancy_frac).toBe(0.08);
    expect(a.rent_growth_annual).toBe(0.02);
    expect(a.opex_growth_annual).toBe(0.025);
    expect(a.registry_version).toBe('underwriting@1.0.0');
    expect(r.economics.purchase_price).toBe(280_000);
  });
  it('rejects bad units and horizon_years with validation_failed', () => {
    expect(codeOf(() => underwrite(pointInput({ units: 5 })))).toBe('validation_failed');
    expect(codeOf(() => underwrite(pointInput({ horizonYears: 0 })))).toBe('validation_failed');
    expect(codeOf(() => underwrite(pointInput({ horizonYears: 31 })))).toBe('validation_failed');
    expect(codeOf(() => underwrite(pointInput({ assumptions: { bogus: 1 } })))).toBe('validation_failed');
  });
  it('applies caller financing only to the chosen strategy', () => {
    const r = underwrite(pointInput({ strategy: 'hold', assumptions: { financing_type: 'dscr_loan' } }));
    expect(r.assumptions.financing_type).toBe('dscr_loan');
    // flip still runs on its default hard money: IO payment = loan × 11% / 12
    const flip = r.strategies.flip.economics;
    expect(flip.monthly_payment).toBeCloseTo((flip.loan_amount as number) * 0.11 / 12, 6);
  });
});
