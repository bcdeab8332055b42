import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brrrrAtPrice } from '../../src/underwriting/brrrr.js';
import { termsFor } from '../../src/underwriting/financing.js';
import { flipAtPrice, flipMaxOffer } from '../../src/underwriting/flip.js';
import { maxWithSlack, type Deal } from '../../src/underwriting/operating.js';
import { underwrite } from '../../src/underwriting/underwrite.js';
import { FINANCING_TYPES } from '../../src/underwriting/types.js';
import { pointInput } from './fixtures.js';

const deal = (over: Partial<Deal>): Deal => ({
  pointActionable: true, priceUsd: 200_000, arvUsd: 350_000, asIsUsd: null, rehabUsd: 60_000, units: 1, rentMonthlyUsd: 2_500,
  taxAnnualUsd: 4_000, hoaMonthlyUsd: 0, ownerOccupied: false, mgmtSelf: false, county: 'cook', isChicago: true, horizonYears: 5, ...over,
});

describe('maxWithSlack(slack, lo, hi, kinks)', () => {
  it('solves a piecewise-linear slack exactly across a kink', () => {
    // slack = 100 − x for x ≤ 40, then 60 − 2(x − 40): zero at x = 70
    const slack = (x: number) => (x <= 40 ? 100 - x : 60 - 2 * (x - 40));
    expect(maxWithSlack(slack, 0, 200, [40])).toBeCloseTo(70, 12);
    expect(maxWithSlack((x) => -1 - x, 0, 10, [])).toBeNull();
    expect(maxWithSlack((x) => 5 - x * 0, 0, 10, [])).toBe(10);
  });
});

describe('flipMaxOffer(deal, terms, months)', () => {
  it('property: profit at the offer is the target (10% of ARV) for every financing type', () => {
    fc.assert(fc.property(
      fc.double({ min: 80_000, max: 2_000_000, noNaN: true }), fc.double({ min: 0, max: 0.5, noNaN: true }),
      fc.constantFrom(...FINANCING_TYPES), fc.integer({ min: 0, max: 18 }), fc.option(fc.double({ min: 0.3, max: 1.2, noNaN: true }), { nil: null }),
      (arv, rehabFrac, type, months, asIsFrac) => {
        // an as-is value adds a kink to long-term loans (LTV on the lesser of price and as-is)
        const d = deal({ arvUsd: arv, rehabUsd: rehabFrac * arv, asIsUsd: asIsFrac === null ? null : asIsFrac * arv });
        const t = termsFor(type);
        const offer = flipMaxOffer(d, t, months);
        if (offer === null) return flipAtPrice(d, t, months, 0).profitUsd < 0.1 * arv;
        if (offer === arv) return flipAtPrice(d, t, months, arv).profitUsd >= 0.1 * arv - 1e-6;
        return Math.abs(flipAtPrice(d, t, months, offer).profitUsd - 0.1 * arv) < 1e-4;
      }), { numRuns: 300 });
  });
});

describe('brrrr_offer', () => {
  it('property: cash left at the offer is exactly 20% of all-in', () => {
    fc.assert(fc.property(
      fc.double({ min: 100_000, max: 1_000_000, noNaN: true }), fc.double({ min: 0, max: 0.4, noNaN: true }),
      fc.double({ min: 500, max: 12_000, noNaN: true }), fc.integer({ min: 0, max: 12 }),
      (arv, rehabFrac, rent, months) => {
        const r = underwrite(pointInput({ strategy: 'brrrr', arv, rehab: rehabFrac * arv, rentMonthly: rent, assumptions: { hold_months: months } }));
        const e = r.economics;
        if (e.brrrr_offer === null || e.brrrr_offer === arv) return true;
        const d = deal({ arvUsd: arv, rehabUsd: rehabFrac * arv, units: 2, rentMonthlyUsd: rent, taxAnnualUsd: 6_000 });
        const at = brrrrAtPrice(d, months, e.refi_loan as number, e.brrrr_offer);
        return Math.abs(at.cashLeftUsd - 0.2 * at.allInUsd) < 1e-4;
      }), { numRuns: 200 });
  });
  it('agrees with the gate: a price at the offer leaves at most 20% in, a dollar more leaves more', () => {
    const base = pointInput({ strategy: 'brrrr', rehab: 50_000, arv: 300_000, rentMonthly: 4_000, taxAnnual: 5_000 });
    const offer = underwrite(base).economics.brrrr_offer as number;
    expect(underwrite({ ...base, price: offer - 0.01 }).economics.cash_left_frac!).toBeLessThanOrEqual(0.2);
    expect(underwrite({ ...base, price: offer + 1 }).economics.cash_left_frac!).toBeGreaterThan(0.2);
  });
});
