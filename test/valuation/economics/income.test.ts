import { describe, expect, it } from 'vitest';
import { capRateFor, incomeCrossCheck } from '../../../src/valuation/economics/income.js';

// 2-flat, $3,000/month whole building, taxes $6,000/yr, Chicago (cap 0.075):
// gross 36,000; vacancy 8% 2,880 → EGI 33,120; opex: taxes 6,000 + insurance 2 × 1,500 + management 8% × 33,120
// = 2,649.6 + maintenance 8% × 36,000 = 2,880 + capex 7% × 36,000 = 2,520 → 17,049.6; NOI 16,070.4; value 214,272
const BASE = { rentMonthlyUsd: 3000, units: 2, taxAnnualUsd: 6000, segment: 'mf2_4_city', county: 'cook' as const, isChicago: true };

describe('incomeCrossCheck', () => {
  it('values NOI at the segment cap rate', () => {
    const r = incomeCrossCheck({ ...BASE, compArvUsd: 400_000 });
    expect(r.noi_annual_usd).toBeCloseTo(16_070.4, 6);
    expect(r.noi_implied_value).toBeCloseTo(214_272, 4);
    expect(r.cap_rate).toBe(0.075);
    // |214,272 − 400,000| / 400,000 = 0.46432
    expect(r.divergence_frac).toBeCloseTo(0.46432, 6);
    expect(r.warnings).toEqual(['income_approach_diverges']);
  });

  it('warns only beyond 25% divergence', () => {
    // value = 0.76 × ARV → divergence 0.24; value = 0.74 × ARV → 0.26
    expect(incomeCrossCheck({ ...BASE, compArvUsd: 214_272 / 0.76 }).warnings).toEqual([]);
    expect(incomeCrossCheck({ ...BASE, compArvUsd: 214_272 / 0.74 }).warnings).toEqual(['income_approach_diverges']);
  });

  it('is null without rent, taxes or a cap rate, and never returns an ARV', () => {
    expect(incomeCrossCheck({ ...BASE, rentMonthlyUsd: null, compArvUsd: 1 }).noi_implied_value).toBeNull();
    expect(incomeCrossCheck({ ...BASE, segment: 'condo_city', compArvUsd: 1 }).noi_implied_value).toBeNull();
    const r = incomeCrossCheck({ ...BASE, compArvUsd: null });
    expect(r.divergence_frac).toBeNull();
    expect(Object.keys(r)).not.toContain('arv');
  });
});

describe('capRateFor', () => {
  it('knows the four segments only', () => {
    expect(capRateFor('sfh_suburb')).toBe(0.065);
    expect(capRateFor('condo_city')).toBeNull();
    expect(capRateFor('toString')).toBeNull();
    expect(capRateFor(null)).toBeNull();
  });
});
