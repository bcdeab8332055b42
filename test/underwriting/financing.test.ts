import { describe, expect, it } from 'vitest';
import { interestOverMonths, monthlyPayment, principalForPayment, sizeLoan, sizeRefinance, termsFor } from '../../src/underwriting/financing.js';
import { CENTS } from './fixtures.js';

describe('monthlyPayment(loan, ratePct, months, interestOnly)', () => {
  it('amortizes with M = L·r / (1 − (1+r)^−n)', () => {
    // L = 200,000, r = 0.06/12 = 0.005, n = 360: 1000 / (1 − 1.005^−360) = 1000 / 0.833958 = 1,199.10
    expect(monthlyPayment(200_000, 6, 360)).toBeCloseTo(1199.1010503, 5);
  });
  it('charges only interest when interest-only', () => {
    // 100,000 × 0.12 / 12 = 1,000
    expect(monthlyPayment(100_000, 12, 12, true)).toBeCloseTo(1000, 9);
  });
  it('repays evenly at a zero rate and is zero for no loan', () => {
    expect(monthlyPayment(36_000, 0, 360)).toBeCloseTo(100, 9);
    expect(monthlyPayment(0, 7, 360)).toBe(0);
  });
  it('is inverted by principalForPayment', () => {
    expect(principalForPayment(1199.1010503055138, 6, 360)).toBeCloseTo(200_000, 4);
  });
});

describe('interestOverMonths(loan, ratePct, term, k)', () => {
  it('equals the first payment interest for k = 1', () => {
    // 200,000 × 0.005 = 1,000 interest in month 1
    expect(interestOverMonths(200_000, 6, 360, 1)).toBeCloseTo(1000, 6);
  });
  it('is k·L·r for interest-only', () => {
    // 180,000 × 0.11 / 12 × 6 = 9,900
    expect(interestOverMonths(180_000, 11, 12, 6, true)).toBeCloseTo(9900, 6);
  });
});

describe('sizeLoan / termsFor per financing type', () => {
  const deal = { priceUsd: 400_000, rehabUsd: 0, arvUsd: 420_000, asIsUsd: null, noiAnnualUsd: null };
  it('fha_oo: 3.5% down, 1.75% upfront MIP financed, 0.55% annual MIP', () => {
    // base = 400,000 × 0.965 = 386,000; loan = 386,000 × 1.0175 = 392,755
    // PI at 6.5%/360 = 2,482.48; MIP = 392,755 × 0.0055 / 12 = 180.01
    const l = sizeLoan(termsFor('fha_oo'), deal);
    expect(l.proceedsUsd).toBeCloseTo(386_000, CENTS);
    expect(l.loanUsd).toBeCloseTo(392_755, CENTS);
    expect(l.monthlyPiUsd).toBeCloseTo(2482.4787657, 4);
    expect(l.monthlyMiUsd).toBeCloseTo(180.0127083, 4);
    expect(l.annualDebtServiceUsd).toBeCloseTo(12 * (2482.4787657 + 180.0127083), 3);
  });
  it('conventional_oo: 5% down carries PMI above 80% LTV, not at 20% down', () => {
    // loan 237,500 at 6.75%: PI 1,540.42; PMI 237,500 × 0.005 / 12 = 98.96
    const l = sizeLoan(termsFor('conventional_oo'), { ...deal, priceUsd: 250_000 });
    expect(l.loanUsd).toBeCloseTo(237_500, CENTS);
    expect(l.monthlyPiUsd).toBeCloseTo(1540.4204793, 4);
    expect(l.monthlyMiUsd).toBeCloseTo(98.9583333, 4);
    expect(termsFor('conventional_oo', { downFrac: 0.2 }).annualMiFrac).toBe(0);
  });
  it('conventional_investor: caller rate and down payment override the defaults', () => {
    const t = termsFor('conventional_investor', { ratePct: 6, downFrac: 0.5 });
    const l = sizeLoan(t, deal);
    // 400,000 × 0.5 = 200,000 at 6%/360 → 1,199.10 (the reference payment above)
    expect(l.loanUsd).toBeCloseTo(200_000, CENTS);
    expect(l.monthlyPiUsd).toBeCloseTo(1199.1010503, 5);
  });
  it('hard_money: interest-only, 2 points, capped at 90% of cost and 70% of ARV', () => {
    // price 200,000, rehab 60,000, ARV 350,000: min(0.9·260,000 = 234,000, 0.7·350,000 = 245,000, 0.9·200,000 + 60,000 = 240,000)
    const l = sizeLoan(termsFor('hard_money'), { priceUsd: 200_000, rehabUsd: 60_000, arvUsd: 350_000, asIsUsd: 150_000, noiAnnualUsd: null });
    expect(l.loanUsd).toBeCloseTo(234_000, CENTS);
    expect(l.loanLimitUsd).toBeCloseTo(234_000, CENTS);
    expect(l.pointsUsd).toBeCloseTo(4_680, CENTS);
    expect(l.monthlyPiUsd).toBeCloseTo(2_145, CENTS); // 234,000 × 0.11 / 12
  });
  it('dscr_loan: the loan limit is the smaller of 75% LTV and the DSCR-1.0 ceiling', () => {
    // NOI 15,770.40 → max monthly 1,314.20; per-dollar payment at 7.75%/360 = 0.0071641 → 183,441.87 < 225,000
    const l = sizeLoan(termsFor('dscr_loan'), { priceUsd: 300_000, rehabUsd: 0, arvUsd: 320_000, asIsUsd: null, noiAnnualUsd: 15_770.4 });
    expect(l.loanLimitUsd).toBeCloseTo(183_441.8671856, 3);
    expect(l.annualDebtServiceUsd).toBeCloseTo(15_770.4, 4); // DSCR exactly 1.0 at the ceiling
  });
  it('long-term loans apply LTV to the lesser of price and as-is value; hard money ignores as-is', () => {
    // as-is 360,000 < price 400,000: 0.75 × 360,000 = 270,000 (the hard-money case above used as-is 150,000 and still lent 234,000)
    expect(sizeLoan(termsFor('conventional_investor'), { ...deal, asIsUsd: 360_000 }).loanUsd).toBeCloseTo(270_000, CENTS);
    expect(sizeLoan(termsFor('conventional_investor'), { ...deal, asIsUsd: 450_000 }).loanUsd).toBeCloseTo(300_000, CENTS);
  });
  it('sizeRefinance takes LTV × value when the DSCR ceiling is higher', () => {
    const l = sizeRefinance(termsFor('dscr_loan'), 300_000, 0.75, 25_127.2);
    expect(l.loanUsd).toBeCloseTo(225_000, CENTS);
    expect(l.monthlyPiUsd).toBeCloseTo(1611.9275525, 4);
  });
});
