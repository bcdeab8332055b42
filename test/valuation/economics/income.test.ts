import { describe, expect, it } from 'vitest';
import { INCOME } from '../../../src/registry/groups/rent.js';
import { capRateFor, incomeCrossCheck } from '../../../src/valuation/economics/income.js';

// 2-flat, $3,000/month whole building, taxes $6,000/yr, Chicago (cap 0.075), point valuation:
// gross 36,000; vacancy 8% 2,880 → EGI 33,120; opex: taxes 6,000 + insurance 2 × 1,500 + management 8% × 33,120
// = 2,649.6 + maintenance 8% × 36,000 = 2,880 + capex 7% × 36,000 = 2,520 + Chicago RLTO reserve 2 × 150 = 300
// → 17,349.6; NOI 15,770.4; value 15,770.4 / 0.075 = 210,272
const BASE = { rentMonthlyUsd: 3000, units: 2, taxAnnualUsd: 6000, segment: 'mf2_4_city', county: 'cook' as const, isChicago: true };
const VALUE = 210_272;

describe('incomeCrossCheck', () => {
  it('values NOI (the underwriting statement of a point valuation, compliance reserve included) at the segment cap rate', () => {
    const r = incomeCrossCheck({ ...BASE, compArvUsd: 250_000 });
    expect(r.noi_annual_usd).toBeCloseTo(15_770.4, 6);
    expect(r.noi_implied_value).toBeCloseTo(VALUE, 4);
    expect(r.cap_rate).toBe(0.075);
    // |210,272 − 250,000| / 250,000 = 0.158912: inside the band, under the warning threshold
    expect(r.divergence_frac).toBeCloseTo(0.158912, 6);
    expect(r.warnings).toEqual([]);
    expect(r.null_reason).toBeNull();
  });

  it('warns beyond 25% divergence and still publishes up to the plausibility band', () => {
    // value = 0.76 × ARV → divergence 0.24; value = 0.74 × ARV → 0.26 (warned, published)
    expect(incomeCrossCheck({ ...BASE, compArvUsd: VALUE / 0.76 }).warnings).toEqual([]);
    const warned = incomeCrossCheck({ ...BASE, compArvUsd: VALUE / 0.74 });
    expect(warned.warnings).toEqual(['income_approach_diverges']);
    expect(warned.noi_implied_value).toBeCloseTo(VALUE, 4);
  });

  it('publishes nothing outside the plausibility band (the issue-12 values 0.003-2.04 x ARV), with the reason', () => {
    const band = INCOME.v.plausible_max_divergence_frac;
    // ARV such that divergence is just inside / just outside the band, on both sides
    for (const [arv, published] of [[VALUE / (1 - band + 0.001), true], [VALUE / (1 - band - 0.001), false], [VALUE / (1 + band - 0.001), true], [VALUE / (1 + band + 0.001), false]] as const) {
      const r = incomeCrossCheck({ ...BASE, compArvUsd: arv });
      expect(r.noi_implied_value !== null).toBe(published);
      expect(r.null_reason).toBe(published ? null : 'outside_plausible_band');
      if (!published) expect(r.warnings).toEqual([]); // an implausible income value is no evidence against the ARV
    }
    // A thin positive NOI: 3,611.2 / 0.075 = 48,149 against a $236,000 ARV (0.20 x), published before as a 'cross-check'
    const tiny = incomeCrossCheck({ ...BASE, rentMonthlyUsd: 1_545, compArvUsd: 236_000 });
    expect(tiny.noi_annual_usd).toBeGreaterThan(0);
    expect(tiny.noi_implied_value).toBeNull();
    expect(tiny.null_reason).toBe('outside_plausible_band');
  });

  it('is null, with its reason, without rent, taxes, a cap rate, a positive NOI or a comp ARV, and never returns an ARV', () => {
    expect(incomeCrossCheck({ ...BASE, rentMonthlyUsd: null, compArvUsd: 1 }).null_reason).toBe('rent_unknown');
    expect(incomeCrossCheck({ ...BASE, taxAnnualUsd: null, compArvUsd: 1 }).null_reason).toBe('tax_unknown');
    expect(incomeCrossCheck({ ...BASE, segment: 'condo_city', compArvUsd: 1 }).null_reason).toBe('no_cap_rate_for_segment');
    expect(incomeCrossCheck({ ...BASE, rentMonthlyUsd: 500, compArvUsd: 200_000 }).null_reason).toBe('noi_not_positive');
    const r = incomeCrossCheck({ ...BASE, compArvUsd: null });
    expect(r.noi_implied_value).toBeNull();
    expect(r.null_reason).toBe('no_comp_arv');
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
