// ValuationSchema and its parts: round-trips of hand-built objects per outcome, extra properties kept, and the
// spec's constants enforced (nbhd_premium never an arv method, area label and confidence cap, disclosure).
import { describe, expect, it } from 'vitest';
import { AreaContextSchema } from '../../src/contracts/area-context.js';
import { ArvSchema, CompRangeSchema } from '../../src/contracts/arv.js';
import { CompRejectionSchema, CompSchema, isKnownRejectionReason } from '../../src/contracts/comp.js';
import { RentSchema } from '../../src/contracts/rent.js';
import { SubjectSchema } from '../../src/contracts/subject.js';
import { DISCLOSURE, ValuationSchema, type Valuation } from '../../src/contracts/valuation.js';
import { REHAB, RENT, comp, comps, subject, tax } from './support/valuation-fixtures.js';

const HASH = 'a'.repeat(64);

/** A hand-built point valuation (no pipeline involved). */
function pointValuation(): Valuation {
  return {
    model_version: 'avm-test-1', as_of: '2026-11-21', inputs_hash: HASH, subject: subject(),
    arv: {
      value: 452_000, low: 407_000, high: 507_000, confidence: 65, confidence_p10: 58, fsd: 10, method_tier: 1, method: 'renovated_comps',
      comps: comps(5), flip_pairs: [], flip_pairs_summary: { n: 0, median_uplift_pct: null, sample: [] }, premium: null, suppression_reason: null,
      appraisal_ceiling: { flag: false, max_reno_sale_24mo: 480_000 }, time_index_note: 'indexed to 2026Q4', range_only: false, n_comps: 5, ladder_step: 1,
      interval: { low: 407_000, high: 507_000, coverage: 0.8, calibrated: true, segment: 'mf2_4_city', method: 'split_conformal', version: 'cal-1', widened_by_model_disagreement: null },
      segment: 'mf2_4_city', range_reason: null, comp_range: { low: 430_000, high: 470_000 }, model: null,
    },
    value_as_is: { value: 251_000, low: 230_000, high: 270_000, n_comps: 4, as_is_basis: 'primary' },
    rent: RENT, rehab: REHAB, tax: tax('arv'), noi_implied_value: 430_000, warnings: [], area_context: null, artifact: null, disclosure: DISCLOSURE,
  };
}

describe('ValuationSchema', () => {
  it('round-trips a hand-built point valuation unchanged', () => {
    const v = pointValuation();
    expect(ValuationSchema.parse(v)).toEqual(v);
  });

  it('round-trips a hand-built suppressed valuation with area context', () => {
    const v: Valuation = {
      ...pointValuation(),
      arv: { value: null, low: null, high: null, confidence: null, method_tier: 3, method: 'suppressed', suppression_reason: 'insufficient_renovated_comps', range_only: null },
      area_context: { value: 380_000, label: 'Area estimate — not property-specific', low: 320_000, high: 445_000, confidence: 55, method: 'nbhd_premium', premium: null, basis: 'tract_premium' },
      tax: tax('area_estimate'),
    };
    expect(ValuationSchema.parse(v)).toEqual(v);
  });

  it('keeps additional properties (the object is open)', () => {
    const v = { ...pointValuation(), legacy_note: 'kept' };
    expect(ValuationSchema.parse(v)).toMatchObject({ legacy_note: 'kept' });
  });

  it.each([
    ['nbhd_premium as an arv method', (v: any) => { v.arv.method = 'nbhd_premium'; }],
    ['a missing disclosure', (v: any) => { delete v.disclosure; }],
    ['another disclosure text', (v: any) => { v.disclosure = 'estimate'; }],
    ['an inputs_hash that is not SHA-256 hex', (v: any) => { v.inputs_hash = 'abc'; }],
    ['more than 12 comps', (v: any) => { v.arv.comps = Array.from({ length: 13 }, (_, i) => comp(i)); }],
    ['an unknown suppression reason', (v: any) => { v.arv.suppression_reason = 'no_reason'; }],
    ['an unknown range reason', (v: any) => { v.arv.range_reason = 'because'; }],
    ['method_tier 4', (v: any) => { v.arv.method_tier = 4; }],
    ['confidence above 100', (v: any) => { v.arv.confidence = 101; }],
    ['a missing required arv field (method_tier)', (v: any) => { delete v.arv.method_tier; }],
    ['county outside cook/lake/unknown', (v: any) => { v.subject.county = 'dupage'; }],
    ['a 10-digit tract', (v: any) => { v.subject.tract_geoid = '1703123010'; }],
    ['rehab scope outside the four', (v: any) => { v.rehab.scope = 'light'; }],
    ['tax target_basis outside the three', (v: any) => { v.tax.target_basis = 'assessor'; }],
  ])('rejects %s', (_label, mutate) => {
    const v = structuredClone(pointValuation());
    mutate(v);
    expect(ValuationSchema.safeParse(v).success).toBe(false);
  });
});

describe('part schemas', () => {
  it('AreaContextSchema: exact label, confidence at most 55, method nbhd_premium only', () => {
    const ac = { value: 380_000, label: 'Area estimate — not property-specific' };
    expect(AreaContextSchema.safeParse(ac).success).toBe(true);
    expect(AreaContextSchema.safeParse({ ...ac, label: 'Area estimate - not property-specific' }).success).toBe(false); // hyphen, not em dash
    expect(AreaContextSchema.safeParse({ ...ac, confidence: 55 }).success).toBe(true);
    expect(AreaContextSchema.safeParse({ ...ac, confidence: 56 }).success).toBe(false);
    expect(AreaContextSchema.safeParse({ ...ac, method: 'hedonic_v1' }).success).toBe(false);
  });

  it('CompSchema: index factor clamped to [0.75, 1.30]', () => {
    expect(CompSchema.safeParse({ ...comp(0), index_factor: 1.3 }).success).toBe(true);
    expect(CompSchema.safeParse({ ...comp(0), index_factor: 1.31 }).success).toBe(false);
    expect(CompSchema.safeParse({ ...comp(0), index_factor: 0.74 }).success).toBe(false);
    expect(CompSchema.safeParse({ ...comp(0), condition: 'unknown' }).success).toBe(false);
  });

  it('CompRejectionSchema: reasons are open-ended snake_case, the kernel codes are known', () => {
    const rej = { pin: '1', reason: 'quitclaim_deed', sale_date: null, price: 5000, dist_mi: 0.4, lat: 41.9, lon: -87.7 };
    expect(CompRejectionSchema.safeParse(rej).success).toBe(true);
    expect(CompRejectionSchema.safeParse({ ...rej, lat: undefined }).success, 'a rejected comp must be drawable').toBe(false);
    expect(CompRejectionSchema.safeParse({ ...rej, reason: 'future_reason_v3' }).success).toBe(true);
    expect(CompRejectionSchema.safeParse({ ...rej, reason: 'Not Snake' }).success).toBe(false);
    expect(isKnownRejectionReason('quitclaim_deed')).toBe(true);
    expect(isKnownRejectionReason('future_reason_v3')).toBe(false);
  });

  it('RentSchema: interval_pct clamped to [0.08, 0.25]', () => {
    const withPct = (p: number) => ({ ...RENT, as_is_contract: { ...RENT.as_is_contract!, interval_pct: p } });
    expect(RentSchema.safeParse(withPct(0.08)).success).toBe(true);
    expect(RentSchema.safeParse(withPct(0.25)).success).toBe(true);
    expect(RentSchema.safeParse(withPct(0.07)).success).toBe(false);
    expect(RentSchema.safeParse(withPct(0.26)).success).toBe(false);
  });

  it('SubjectSchema keeps unknown fields null rather than requiring them', () => {
    const s = { ...subject(), beds: null, sqft: null, year_built: null, listing_id: null, address: null };
    expect(SubjectSchema.parse(s)).toEqual(s);
  });

  it('ArvSchema accepts a minimal suppressed arv and CompRangeSchema a bare IQR', () => {
    expect(ArvSchema.safeParse({ value: null, low: null, high: null, confidence: null, method_tier: 3, method: 'suppressed' }).success).toBe(true);
    expect(CompRangeSchema.safeParse({ low: 1, high: 2 }).success).toBe(true);
  });
});
