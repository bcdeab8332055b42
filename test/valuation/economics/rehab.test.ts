import { describe, expect, it } from 'vitest';
import { ageMultiplier, estimateRehab, type RehabInput } from '../../../src/valuation/economics/rehab.js';

const input = (over: Partial<RehabInput> = {}): RehabInput => ({
  condition: 'dated', sqft: 2_000, yearBuilt: 1990, openViolations: 0, mechanicalsNeedReplacement: false, ...over,
});

describe('estimateRehab(input)', () => {
  it('derives scope from condition', () => {
    expect(estimateRehab(input({ condition: 'distressed' })).scope).toBe('gut');
    expect(estimateRehab(input({ condition: 'dated' })).scope).toBe('moderate');
    expect(estimateRehab(input({ condition: 'renovated' })).scope).toBe('cosmetic');
    expect(estimateRehab(input({ condition: 'new' }))).toMatchObject({ scope: 'cosmetic', scope_source: 'derived_from_condition' });
    expect(estimateRehab(input({ condition: null }))).toMatchObject({ scope: 'moderate', scope_source: 'default_condition_unknown' });
  });
  it('gets structural only from a caller override', () => {
    const r = estimateRehab(input({ condition: 'distressed', scopeOverride: 'structural' }));
    expect(r).toMatchObject({ scope: 'structural', scope_source: 'caller_override', psf_base: 150 });
  });
  it('multiplies sqft × psf_base × violations × age × mechanicals', () => {
    // moderate 45 $/sf × 2,000 sf = 90,000 with no multipliers
    expect(estimateRehab(input()).estimate).toBeCloseTo(90_000, 6);
    // gut 100 × 1,500 × 1.10 (violations) × 1.15 (built 1925) × 1.15 (mechanicals) = 218,212.50
    const r = estimateRehab(input({ condition: 'distressed', sqft: 1_500, yearBuilt: 1925, openViolations: 3, mechanicalsNeedReplacement: true }));
    expect(r.multipliers).toEqual({ violations: 1.1, age: 1.15, mechanicals: 1.15 });
    expect(r.estimate).toBeCloseTo(218_212.5, 6);
    expect(r.registry_version).toBe('rehab@1.0.0');
  });
  it('bands age at 1940 and 1978, unknown age adds nothing', () => {
    expect(ageMultiplier(1939)).toBe(1.15);
    expect(ageMultiplier(1940)).toBe(1.07);
    expect(ageMultiplier(1977)).toBe(1.07);
    expect(ageMultiplier(1978)).toBe(1);
    expect(ageMultiplier(null)).toBe(1);
  });
  it('returns a null estimate when sqft is unknown, never an invented one', () => {
    const r = estimateRehab(input({ sqft: null }));
    expect(r.estimate).toBeNull();
    expect(r.psf_base).toBe(45);
    expect(estimateRehab(input({ sqft: 0 })).estimate).toBeNull();
  });
});
