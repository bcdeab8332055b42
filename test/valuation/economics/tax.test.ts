import { describe, expect, it } from 'vitest';
import { equalizationFactorFor, levelOfAssessment, loadCookCountyLevel, taxRateFor } from '../../../src/reference/load.js';
import { billFor, estimateTax, memoTaxReference, nextReassessYear, predictiveTaxAnnual, REFERENCE_TAX_SOURCE, type TaxInput } from '../../../src/valuation/economics/tax.js';

const cook = (over: Partial<TaxInput> = {}): TaxInput => ({
  county: 'cook', municipality: 'Chicago', triad: null, classCode: '211',
  priceUsd: 300_000, asIsValueUsd: 280_000, arvUsd: 400_000, arvPointActionable: true, areaEstimateUsd: null,
  ownerOccupied: false, asOf: '2024-06-01', ...over,
});

describe('estimateTax() cook_equalized on the real reference data', () => {
  it('reads the published 2023 Chicago figures the derivations below use', () => {
    // data/reference: muni_tax_rates.csv Chicago 2023 current_rate_avg 0.07; equalization_factors.csv 2023 final 3.0163;
    // levels_of_assessment.csv 2023 class 211 loa 0.1
    expect(taxRateFor('Chicago', 2023)?.currentRateAvg).toBe(0.07);
    expect(equalizationFactorFor(2023)?.factor).toBe(3.0163);
    expect(levelOfAssessment('211', 2023)?.loa).toBe(0.1);
  });
  it('computes current and predictive bills for a non-owner-occupant (no exemption)', () => {
    // as of 2024 → tax year 2023. current: 300,000 × 0.10 = 30,000 AV × 3.0163 = 90,489 EAV × 0.07 = 6,334.23
    // predictive on ARV 400,000: 40,000 × 3.0163 = 120,652 × 0.07 = 8,445.64
    const { tax, basis } = estimateTax(cook());
    expect(tax.method).toBe('cook_equalized');
    expect(tax.current_annual).toBeCloseTo(6_334.23, 2);
    expect(tax.predictive_annual).toBeCloseTo(8_445.64, 2);
    expect(tax.exemptions_assumed).toBe(0);
    expect(tax.target_basis).toBe('arv');
    expect(tax.confidence).toBe('medium');
    expect(basis).toMatchObject({ taxYear: 2023, levelOfAssessment: 0.1, equalizationFactor: 3.0163, compositeRate: 0.07 });
  });
  it('subtracts the $10,000 homeowner exemption from EAV only for an owner-occupant', () => {
    // (90,489 − 10,000) × 0.07 = 5,634.23
    const { tax } = estimateTax(cook({ ownerOccupied: true }));
    expect(tax.current_annual).toBeCloseTo(5_634.23, 2);
    expect(tax.exemptions_assumed).toBe(10_000);
    expect(estimateTax(cook()).tax.current_annual! - tax.current_annual!).toBeCloseTo(700, 6); // 10,000 × 0.07
  });
  it('flags a tax shock only beyond 20% over the current bill', () => {
    // 8,445.64 > 6,334.23 × 1.2 = 7,601.08 → shock; forward 355,000 → 7,495.51 < 7,601.08 → none
    expect(estimateTax(cook()).tax.shock_flag).toBe(true);
    expect(estimateTax(cook({ arvUsd: 355_000 })).tax.shock_flag).toBe(false);
    // the edge is 20% more value (no exemption → bill proportional to value): just below / just above 360,000
    expect(estimateTax(cook({ arvUsd: 359_999 })).tax.shock_flag).toBe(false);
    expect(estimateTax(cook({ arvUsd: 360_001 })).tax.shock_flag).toBe(true);
  });
  it('prices the 10% Board-of-Review appeal on the forward value', () => {
    // 36,000 AV × 3.0163 × 0.07 = 7,601.076; savings = 8,445.64 − 7,601.076 = 844.564; Chicago reassessed 2024 → 3 years
    const { appeal } = estimateTax(cook()).tax;
    expect(appeal?.est_av_reduction_pct).toBe(10);
    expect(appeal?.est_annual_savings).toBeCloseTo(844.564, 3);
    expect(appeal?.locked_years).toBe(3);
    expect(estimateTax(cook({ asOf: '2026-03-01' })).tax.appeal?.locked_years).toBe(1); // next 2027
  });
  it('uses the latest published year when the as-of tax year is not out yet', () => {
    const { basis } = estimateTax(cook({ asOf: '2026-11-21' }));
    expect(basis.taxYear).toBe(2023);
  });
  it('refuses an as_of that is not an ISO date with validation_failed, not an uncaught RangeError', () => {
    expect(() => estimateTax(cook({ asOf: 'June 2024' }))).toThrow(expect.objectContaining({ code: 'validation_failed', status: 400 }));
  });
  it('uses the real county-wide average rate, with low confidence and a note, when the municipality has none', () => {
    const { tax, basis } = estimateTax(cook({ municipality: 'Atlantis' }));
    expect(tax.current_annual).not.toBeNull();
    expect(tax.confidence).toBe('low');
    expect(basis.note).toMatch(/no published municipal rate, county-wide average composite rate/);
    expect(basis.compositeRate).toBe(loadCookCountyLevel().filter((r) => r.year <= (basis.taxYear as number)).at(-1)?.currentRateAvg);
  });

  it('returns null bills (not a guess) when the county is unknown', () => {
    const { tax } = estimateTax(cook({ county: 'unknown' }));
    expect(tax.current_annual).toBeNull();
    expect(tax.predictive_annual).toBeNull();
    expect(tax.appeal).toBeNull();
    expect(tax.confidence).toBeNull();
  });
});

describe('nextReassessYear(county, triad, year)', () => {
  it('follows the triads: City 2024, North 2025, South/West 2026, every 3 years', () => {
    expect(nextReassessYear('cook', 'city', 2024)).toBe(2024);
    expect(nextReassessYear('cook', 'city', 2025)).toBe(2027);
    expect(nextReassessYear('cook', 'north', 2026)).toBe(2028);
    expect(nextReassessYear('cook', 'south_west', 2026)).toBe(2026);
    expect(nextReassessYear('cook', 'south_west', 2027)).toBe(2029);
    expect(nextReassessYear('cook', null, 2026)).toBeNull();
    expect(nextReassessYear('lake', null, 2026)).toBe(2027); // quadrennial 2023, 2027
    expect(nextReassessYear('unknown', null, 2026)).toBeNull();
  });
  it('treats Chicago as the city triad whatever the caller says', () => {
    expect(estimateTax(cook({ asOf: '2025-01-01', triad: 'north' })).tax.next_reassess_year).toBe(2027);
  });
});

describe('estimateTax() lake_median_rate', () => {
  const lake = (over: Partial<TaxInput> = {}) => estimateTax(cook({ county: 'lake', municipality: 'Waukegan', asOf: '2026-05-01', ...over })).tax;
  it('applies one-third assessment and the median effective rate, confidence low', () => {
    // EAV = 300,000 / 3 = 100,000; rate on EAV = 0.0246 × 3 = 0.0738 → 7,380 (= 2.46% of value)
    const t = lake();
    expect(t.method).toBe('lake_median_rate');
    expect(t.current_annual).toBeCloseTo(7_380, 6);
    expect(t.confidence).toBe('low');
    expect(t.appeal?.note).toMatch(/median effective rate/);
    // owner-occupant: (100,000 − 8,000) × 0.0738 = 6,789.60
    expect(lake({ ownerOccupied: true }).current_annual).toBeCloseTo(6_789.6, 6);
    // appeal: 10% of 133,333.33 EAV × 0.0738 = 984; next quadrennial 2027 → 1 year
    expect(t.appeal?.est_annual_savings).toBeCloseTo(984, 6);
    expect(t.appeal?.locked_years).toBe(1);
  });
  it('unknown county: method none and every bill null', () => {
    const t = estimateTax(cook({ county: 'unknown' })).tax;
    expect(t).toMatchObject({ method: 'none', current_annual: null, predictive_annual: null, exemptions_assumed: null, appeal: null, shock_flag: false });
  });
});

describe('forwardValue() and the display ladder', () => {
  it('uses the ARV only when it is a point; else the price, else the area estimate', () => {
    // range-only ARV: predictive on the price 300,000 → equal to the current bill, no shock
    const range = estimateTax(cook({ arvPointActionable: false })).tax;
    expect(range.target_basis).toBe('price');
    expect(range.predictive_annual).toBeCloseTo(6_334.23, 2);
    expect(range.shock_flag).toBe(false);
    const area = estimateTax(cook({ arvPointActionable: false, priceUsd: null, areaEstimateUsd: 350_000 })).tax;
    expect(area.target_basis).toBe('area_estimate');
    // current on the as-is value when no price: 280,000 × 0.1 × 3.0163 × 0.07 = 5,911.948
    expect(area.current_annual).toBeCloseTo(5_911.948, 3);
    // predictive on 350,000: 35,000 × 3.0163 × 0.07 = 7,389.935
    expect(area.predictive_annual).toBeCloseTo(7_389.935, 3);
  });
});

describe('billFor(value, params, reduction)', () => {
  it('never goes negative when the exemption exceeds EAV', () => {
    expect(billFor(10_000, { loa: 0.1, eq: 3, rate: 0.07, exemptionEavUsd: 10_000 })).toBe(0);
  });
});

describe('predictiveTaxAnnual() (bulk scoring) and memoTaxReference()', () => {
  const cases: TaxInput[] = [
    cook(), cook({ ownerOccupied: true }), cook({ municipality: 'Evanston' }), cook({ municipality: null }),
    cook({ arvPointActionable: false, arvUsd: null }), cook({ arvPointActionable: false, arvUsd: null, priceUsd: null, areaEstimateUsd: 250_000 }),
    cook({ county: 'lake', municipality: null }), cook({ county: 'unknown', municipality: null }),
  ];
  it('is estimateTax().tax.predictive_annual for every kind of subject, through the memoized reference too', () => {
    const memo = memoTaxReference(REFERENCE_TAX_SOURCE);
    for (const input of cases) {
      const want = estimateTax(input).tax.predictive_annual;
      expect(predictiveTaxAnnual(input)).toBe(want);
      expect(predictiveTaxAnnual(input, memo)).toBe(want);
      expect(predictiveTaxAnnual(input, memo)).toBe(want); // second call: answered from the memo
    }
    expect(cases.map((c) => predictiveTaxAnnual(c)).filter((x) => x !== null).length).toBeGreaterThan(3);
  });
});
