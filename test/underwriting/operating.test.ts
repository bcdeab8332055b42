import { describe, expect, it } from 'vitest';
import { cashflowArray, complianceReserveAnnual, operatingStatement, type Deal } from '../../src/underwriting/operating.js';

const deal = (over: Partial<Deal> = {}): Deal => ({
  pointActionable: true, priceUsd: 300_000, arvUsd: 320_000, asIsUsd: null, rehabUsd: 0, units: 4, rentMonthlyUsd: 6_000,
  taxAnnualUsd: 8_000, hoaMonthlyUsd: 50, ownerOccupied: false, mgmtSelf: false, county: 'cook', isChicago: true, horizonYears: 5, ...over,
});

describe('complianceReserveAnnual(deal, rentedUnits)', () => {
  it('reserves RLTO in Chicago and RTLO in suburban Cook per rented unit', () => {
    expect(complianceReserveAnnual(deal(), 4)).toBe(600); // 150 × 4
    expect(complianceReserveAnnual(deal({ isChicago: false }), 4)).toBe(400); // 100 × 4
  });
  it('is zero when the valuation is not point-actionable, outside Cook, or owner-occupied ≤ 6 units', () => {
    expect(complianceReserveAnnual(deal({ pointActionable: false }), 4)).toBe(0);
    expect(complianceReserveAnnual(deal({ county: 'lake', isChicago: false }), 4)).toBe(0);
    expect(complianceReserveAnnual(deal({ ownerOccupied: true }), 3)).toBe(0);
  });
});

describe('operatingStatement(deal, rentedUnits)', () => {
  it('prorates rent to the rented units and adds HOA', () => {
    // 3 of 4 units: gross = 12 × 6,000 × 3/4 = 54,000; HOA 12 × 50 = 600
    const op = operatingStatement(deal(), 3)!;
    expect(op.grossRentAnnualUsd).toBeCloseTo(54_000, 6);
    expect(op.hoaUsd).toBe(600);
    expect(op.complianceUsd).toBe(450);
    expect(operatingStatement(deal({ rentMonthlyUsd: null }), 4)).toBeNull();
  });
});

describe('cashflowArray(op, debtService, years)', () => {
  it('compounds rent at 2% and opex at 2.5% from year 1', () => {
    const op = operatingStatement(deal(), 4)!;
    const cf = cashflowArray(op, 20_000, 3);
    expect(cf.map((y) => y.year)).toEqual([1, 2, 3]);
    expect(cf[0].noi).toBeCloseTo(op.noiUsd, 9);
    expect(cf[1].gross_rent).toBeCloseTo(op.grossRentAnnualUsd * 1.02, 9);
    expect(cf[2].opex).toBeCloseTo(op.opexTotalUsd * 1.025 ** 2, 9);
    expect(cf.every((y) => y.debt_service === 20_000)).toBe(true);
  });
});
