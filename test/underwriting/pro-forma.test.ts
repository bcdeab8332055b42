import { describe, expect, it } from 'vitest';
import { underwrite } from '../../src/underwriting/underwrite.js';
import { CENTS, pointInput } from './fixtures.js';

describe('underwrite() hold with conventional_investor', () => {
  // Chicago 2-flat, price 300,000, rent 3,000/mo, tax 6,000, paid management.
  // gross 36,000; vacancy 8% = 2,880; EGI 33,120; mgmt 8% EGI 2,649.60; maint 8% gross 2,880; capex 7% 2,520;
  // insurance 1,500 × 2 = 3,000; RLTO reserve 150 × 2 = 300; opex = 17,349.60; NOI = 15,770.40.
  // Loan 75% = 225,000 at 7.25%/360: r = 0.0060417, M = 1,534.90, DS = 18,418.76; DSCR = 0.85621.
  // Cash in = 75,000 down + 2% closing 6,000 = 81,000; CoC = (15,770.40 − 18,418.76) / 81,000 = −0.032696.
  const r = underwrite(pointInput());
  const e = r.economics;
  it('computes the operating statement line by line', () => {
    expect(e.gross_rent_annual).toBeCloseTo(36_000, CENTS);
    expect(e.effective_gross_income).toBeCloseTo(33_120, CENTS);
    expect(e.opex_management).toBeCloseTo(2_649.6, CENTS);
    expect(e.opex_compliance).toBeCloseTo(300, CENTS);
    expect(e.opex_total).toBeCloseTo(17_349.6, CENTS);
    expect(e.noi).toBeCloseTo(15_770.4, CENTS);
  });
  it('computes payment, DSCR and cash-on-cash', () => {
    expect(e.loan_amount).toBeCloseTo(225_000, CENTS);
    expect(e.monthly_payment).toBeCloseTo(1534.8966301, 4);
    expect(e.annual_debt_service).toBeCloseTo(18_418.7595615, 3);
    expect(e.dscr).toBeCloseTo(0.8562140109, 8);
    expect(e.cash_invested).toBeCloseTo(81_000, CENTS);
    expect(e.cash_on_cash).toBeCloseTo(-0.0326957971, 8);
  });
  it('grows rent 2% and opex 2.5% a year with constant debt service', () => {
    expect(e.cashflow).toHaveLength(5);
    // year 3: EGI 33,120 × 1.02² = 34,458.048; opex 17,349.60 × 1.025² = 18,227.9235; NOI 16,230.1245
    const y3 = e.cashflow![2];
    expect(y3.effective_gross_income).toBeCloseTo(34_458.048, 3);
    expect(y3.opex).toBeCloseTo(18_227.9235, 3);
    expect(y3.noi).toBeCloseTo(16_230.1245, 3);
    expect(y3.debt_service).toBeCloseTo(e.annual_debt_service!, 9);
    expect(y3.cashflow).toBeCloseTo(-2_188.6350615, 3);
    // profit = Σ cashflow over 5 years = −10,931.18
    expect(e.profit).toBeCloseTo(-10_931.1849231, 3);
  });
  it('fails its gates, so economics_factor is 0', () => {
    expect(e.economics_factor).toBe(0);
    expect(r.scored).toBe(true);
  });
  it('drops the compliance reserve outside Cook and management when self-managed', () => {
    const lake = underwrite(pointInput({ county: 'lake', isChicago: false, mgmtSelf: true })).economics;
    expect(lake.opex_compliance).toBe(0);
    expect(lake.opex_management).toBe(0);
    // NOI rises by the 300 reserve and the 2,649.60 management fee
    expect(lake.noi).toBeCloseTo(15_770.4 + 300 + 2_649.6, CENTS);
    const suburb = underwrite(pointInput({ isChicago: false })).economics;
    expect(suburb.opex_compliance).toBeCloseTo(200, CENTS); // suburban Cook RTLO 100 × 2
  });
  it('honours horizon_years and rent_override', () => {
    const r30 = underwrite(pointInput({ horizonYears: 30, assumptions: { rent_override: 0 } }));
    expect(r30.economics.cashflow).toHaveLength(30);
    expect(r30.economics.gross_rent_annual).toBe(0);
    expect(r30.assumptions.rent_source).toBe('rent_override');
  });
});

describe('underwrite() flip with hard_money', () => {
  // price 200,000, rehab 60,000, ARV 350,000, tax 4,000, 1 unit, 6 months.
  // loan = min(0.9·260,000, 0.7·350,000, 0.9·200,000 + 60,000) = 234,000; points 4,680; IO interest 234,000·0.11/12·6 = 12,870
  // carry = (4,000 + 1,500)/12 × 6 = 2,750; buy closing 4,000; sale closing 6% ARV = 21,000
  // profit = 350,000 − 200,000 − 60,000 − 4,000 − 21,000 − 2,750 − 4,680 − 12,870 = 44,700; margin = 0.127714
  const r = underwrite(pointInput({ strategy: 'flip', price: 200_000, rehab: 60_000, arv: 350_000, taxAnnual: 4_000, units: 1 }));
  const e = r.economics;
  it('computes profit and margin from the full cost stack', () => {
    expect(r.assumptions.financing_type).toBe('hard_money');
    expect(e.loan_amount).toBeCloseTo(234_000, CENTS);
    expect(e.monthly_payment).toBeCloseTo(2_145, CENTS);
    expect(e.financing_costs).toBeCloseTo(4_680 + 12_870, CENTS);
    expect(e.holding_costs).toBeCloseTo(2_750, CENTS);
    expect(e.profit).toBeCloseTo(44_700, CENTS);
    expect(e.profit_margin).toBeCloseTo(0.1277142857, 9);
    expect(e.noi).toBeNull();
  });
  it('reports both offers, with max_offer the full-cost one', () => {
    // 70% rule: 0.70 × 350,000 − 60,000 = 185,000
    expect(e.max_offer_70_rule).toBeCloseTo(185_000, CENTS);
    // Full cost at target 10% of ARV (35,000), loan region 0.9(X + R) = 0.9X + 54,000:
    // profit(X) = 350,000 − 60,000 − 21,000 − 2,750 − 0.075·54,000 − X(1 + 0.02 + 0.9·0.075) = 35,000
    // → X = (262,200 − 35,000) / 1.0875 = 208,919.54
    expect(e.max_offer_basis).toBe('full_cost');
    expect(e.max_offer).toBeCloseTo(208_919.5402299, 3);
    expect(e.economics_factor).toBeGreaterThan(0);
  });
});

describe('underwrite() brrrr: hard-money purchase, DSCR-loan refinance', () => {
  // price 190,000, rehab 50,000, ARV 300,000, 2 units, rent 4,000, tax 5,000, 6 months.
  // acquisition = min(0.9·240,000 = 216,000, 0.7·300,000 = 210,000, 0.9·190,000 + 50,000 = 221,000) = 210,000
  // points 4,200; interest 210,000·0.11/12·6 = 11,550; carry (5,000 + 3,000)/12·6 = 4,000; closing 3,800
  // NOI: EGI 44,160 − opex (5,000 + 3,000 + 3,532.80 + 3,840 + 3,360 + 300) 19,032.80 = 25,127.20
  // refi = min(0.75·300,000 = 225,000, DSCR-1.0 ceiling 292,280.51) = 225,000; refi closing 4,500
  // all-in = 190,000 + 50,000 + 3,800 + 4,000 + 4,200 + 11,550 + 4,500 = 268,050; cash left = 43,050 (16.06%)
  // refi payment at 7.75%/360 = 1,611.93 → DS 19,343.13; DSCR = 1.29902; CoC = (25,127.20 − 19,343.13)/43,050 = 0.134357
  const input = pointInput({ strategy: 'brrrr', price: 190_000, rehab: 50_000, arv: 300_000, rentMonthly: 4_000, taxAnnual: 5_000 });
  const e = underwrite(input).economics;
  it('sizes the refinance and the cash left in', () => {
    expect(e.refi_loan).toBeCloseTo(225_000, CENTS);
    expect(e.cash_left_in).toBeCloseTo(43_050, CENTS);
    expect(e.cash_left_frac).toBeCloseTo(0.1606043649, 9);
    expect(e.cash_invested).toBeCloseTo(53_550, CENTS); // peak cash before the refi: all-in − refi closing − acquisition loan
  });
  it('computes DSCR and cash-on-cash after the refinance', () => {
    expect(e.noi).toBeCloseTo(25_127.2, CENTS);
    expect(e.annual_debt_service).toBeCloseTo(19_343.1306301, 3);
    expect(e.dscr).toBeCloseTo(1.2990244692, 8);
    expect(e.cash_on_cash).toBeCloseTo(0.1343570121, 8);
    expect(e.profit).toBeCloseTo(31_950, CENTS); // equity at refi: ARV − all-in
  });
  it('finds the BRRRR offer where cash left is 20% of all-in', () => {
    // ARV-cap region, acquisition 210,000: all-in(X) = 1.02X + 50,000 + 4,000 + 210,000·0.075 + 4,500 ≤ 225,000 / 0.8
    // → X = (281,250 − 74,250) / 1.02 = 202,941.18
    expect(e.brrrr_offer).toBeCloseTo(202_941.1764706, 3);
  });
  it('leaves cash-on-cash null (not a number) when the refinance returns all the cash', () => {
    // price 140,000: all-in 214,125 < refi 225,000 → cash left −10,875
    const cashOut = underwrite({ ...input, price: 140_000 }).economics;
    expect(cashOut.cash_left_in).toBeCloseTo(-10_875, CENTS);
    expect(cashOut.cash_on_cash).toBeNull();
    expect(cashOut.dscr).toBeCloseTo(1.2990244692, 8);
  });
});

describe('underwrite() house_hack with fha_oo', () => {
  // 3 units, price 400,000, building rent 4,500 (1,500/unit), owner-occupied tax 8,000, self-managed, RLTO-exempt.
  // loan 392,755 (see financing test): PI 2,482.48 + MIP 180.01 → DS 31,949.90
  // rented 2 units: gross 36,000; EGI 33,120; opex = 8,000 + 4,500 + 2,880 + 2,520 = 17,900; NOI 15,220
  // owner net housing cost = (31,949.90 − 15,220)/12 = 1,394.16; / one-unit rent 1,500 = 0.92944
  // self-sufficiency: PITI = 2,482.48 + 180.01 + (8,000 + 4,500)/12 = 3,704.16 > 0.75 × 4,500 = 3,375 → fails
  const r = underwrite(pointInput({ strategy: 'house_hack', price: 400_000, arv: 420_000, units: 3, rentMonthly: 4_500, taxAnnual: 9_000, taxAnnualOwnerOccupied: 8_000, mgmtSelf: undefined }));
  const e = r.economics;
  it('computes the owner net housing cost on the rented units', () => {
    expect(r.assumptions.financing_type).toBe('fha_oo');
    expect(r.assumptions.mgmt_self).toBe(true);
    expect(e.opex_compliance).toBe(0);
    expect(e.opex_taxes).toBe(8_000);
    expect(e.noi).toBeCloseTo(15_220, CENTS);
    expect(e.owner_net_housing_cost_monthly).toBeCloseTo(1_394.1581407, 4);
    expect(e.owner_cost_to_rent).toBeCloseTo(0.9294387604, 8);
  });
  it('applies the FHA 3-4 unit self-sufficiency test', () => {
    expect(e.fha_self_sufficiency_pass).toBe(false);
    expect(e.economics_factor).toBe(0); // gated out by self-sufficiency
    const richer = underwrite(pointInput({ strategy: 'house_hack', price: 400_000, arv: 420_000, units: 3, rentMonthly: 5_000, taxAnnualOwnerOccupied: 8_000 }));
    // 0.75 × 5,000 = 3,750 ≥ PITI 3,704.16
    expect(richer.economics.fha_self_sufficiency_pass).toBe(true);
  });
  it('does not apply self-sufficiency to 2 units or to non-FHA financing', () => {
    expect(underwrite(pointInput({ strategy: 'house_hack', units: 2 })).economics.fha_self_sufficiency_pass).toBeNull();
    const conv = underwrite(pointInput({ strategy: 'house_hack', units: 3, assumptions: { financing_type: 'conventional_oo' } }));
    expect(conv.economics.fha_self_sufficiency_pass).toBeNull();
    expect(conv.assumptions.financing_type).toBe('conventional_oo');
  });
});
