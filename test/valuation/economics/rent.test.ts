import { describe, expect, it } from 'vitest';
import { RentSchema } from '../../../src/contracts/rent.js';
import { clampRentBand, estimateRent, rentConfidence, rentFigures, type RentSubject } from '../../../src/valuation/economics/rent.js';
import { bedroomMix } from '../../../src/valuation/economics/rent-mix.js';
import type { SafmrTable } from '../../../src/ingest/loaders/safmr.js';

// Gross 40th-percentile SAFMRs (0..4 BR) of a test ZIP; utility allowance (registry) = [95, 115, 145, 175, 205].
const SAFMR: SafmrTable = { fiscal_year: 2025, rows: { '60601': { zip: '60601', hud_area_code: 'X', area_name: null, rent_by_beds_usd: [1200, 1400, 1700, 2100, 2500] } } };
const TWO_FLAT: RentSubject = { zip: '60601', lat: 41.88, lon: -87.62, units: 2, beds: 5, sqft: 2000, condition: 'dated' };

describe('bedroomMix', () => {
  it('spreads bedrooms over units, remainder on the first units', () => {
    // 5 beds / 2 units: base 2, remainder 1 → one 3BR and one 2BR
    expect(bedroomMix(2, 5).mix).toEqual([{ beds: 3, count: 1 }, { beds: 2, count: 1 }]);
    expect(bedroomMix(3, 6).mix).toEqual([{ beds: 2, count: 3 }]);
  });
  it('assumes the 2BR reference unit when beds are unknown and caps at 4BR', () => {
    expect(bedroomMix(2, null)).toEqual({ mix: [{ beds: 2, count: 2 }], warnings: ['beds_unknown_assumed_2br'] });
    expect(bedroomMix(1, 6)).toEqual({ mix: [{ beds: 4, count: 1 }], warnings: ['beds_over_4_priced_as_4br'] });
  });
});

describe('estimateRent', () => {
  const r = estimateRent(TWO_FLAT, SAFMR);

  it('validates against the Rent schema', () => {
    expect(RentSchema.safeParse(r).success).toBe(true);
  });

  it('prices as-is contract rent as (gross SAFMR − utility allowance) × condition factor', () => {
    // 3BR: 2100 − 175 = 1925; 2BR: 1700 − 145 = 1555; dated factor 0.95 → 1828.75 + 1477.25 = 3306
    expect(r.as_is_contract!.value).toBeCloseTo(3306, 6);
    expect(r.unit_mix).toEqual([{ beds: 3, count: 1, safmr: 2100, est: 1828.75 }, { beds: 2, count: 1, safmr: 1700, est: 1477.25 }]);
    // band 0.10 (every input known): low 3306 × 0.9 = 2975.4, high 3306 × 1.1 = 3636.6
    expect(r.as_is_contract!.interval_pct).toBe(0.1);
    expect(r.as_is_contract!.low).toBeCloseTo(2975.4, 6);
    expect(r.as_is_contract!.high).toBeCloseTo(3636.6, 6);
  });

  it('prices the stabilized rent with the sqft elasticity inside its band', () => {
    // 1000 sqft per unit. 3BR: (1000/1200)^0.3 = 0.946773; 2BR: (1000/950)^0.3 = 1.015507 (both inside [0.9, 1.2])
    // renovated factor 1.0: 1925 × 0.946773 + 1555 × 1.015507 = 1822.538 + 1579.113 = 3401.65
    expect(r.stabilized_post_reno!.value).toBeCloseTo(3401.65, 1);
    expect(r.stabilized_post_reno!.interval_pct).toBeCloseTo(0.15, 12); // 0.10 + 0.05 post-reno
  });

  it('reports s8, context, aliases, mu and confidence', () => {
    expect(r.s8).toBe(3800); // gross SAFMR 2100 + 1700 (payment-standard base)
    expect(r.context).toEqual({ acs_gross: null, safmr_2br_equiv: 1700, zori_zip: null });
    expect(r.market).toBe(r.as_is_contract!.value);
    expect(r.reno).toBe(r.stabilized_post_reno!.value);
    expect(r.mu).toBe(0);
    expect(r.method).toBe('safmr_anchored');
    // band 0.10 as an 80% half-width: sd = 0.1/1.2816 = 0.078027; erf(0.1/(sd·√2)) = erf(0.90624) = 0.7996 → 80
    expect(r.as_is_contract!.confidence).toBe(80);
    expect(r.confidence).toBe(80);
    // band 0.15: sd = 0.117041; erf(0.60415) = 0.6068 → 61
    expect(r.stabilized_post_reno!.confidence).toBe(61);
    expect(r.rent_confidence).toBe('medium');
    expect(r.warnings).toContain('utility_allowance_convention');
  });

  it('caps the post-reno uplift at 1.5 × as-is', () => {
    // caller factors: distressed 0.5, renovated 1.0 → uncapped 3401.65 vs as-is (1925 + 1555) × 0.5 = 1740 → cap 2610
    const capped = estimateRent({ ...TWO_FLAT, condition: 'distressed' }, SAFMR, { conditionFactor: [0.5, 0.95, 1.0, 1.05] });
    expect(capped.as_is_contract!.value).toBeCloseTo(1740, 6);
    expect(capped.stabilized_post_reno!.value).toBeCloseTo(2610, 6);
    expect(capped.stabilized_post_reno!.evidence.find((e) => e.kind === 'post_reno')!.capped).toBe(true);
  });

  it('never lets the stabilized rent fall below the as-is rent (a new building)', () => {
    const fresh = estimateRent({ ...TWO_FLAT, condition: 'new', sqft: null }, SAFMR);
    expect(fresh.stabilized_post_reno!.value).toBe(fresh.as_is_contract!.value);
  });

  it('clamps interval_pct to [0.08, 0.25] and flags low confidence beyond ±24%', () => {
    expect(clampRentBand(0.05)).toBe(0.08);
    expect(clampRentBand(0.08)).toBe(0.08);
    expect(clampRentBand(0.25)).toBe(0.25);
    expect(clampRentBand(0.3)).toBe(0.25);
    // beds unknown (+0.06), condition unknown (+0.05), nearest ZIP (+0.05): 0.10 + 0.16 = 0.26 → clamped 0.25, low
    const vague = estimateRent({ zip: '99999', lat: 41.9, lon: -87.6, units: 1, beds: null, sqft: null, condition: null }, SAFMR, { zipCentroids: [{ zip: '60601', county: 'cook', lat: 41.88, lon: -87.62 }] });
    expect(vague.as_is_contract!.interval_pct).toBe(0.25);
    expect(vague.rent_confidence).toBe('low');
    expect(vague.warnings).toEqual(expect.arrayContaining(['beds_unknown_assumed_2br', 'safmr_nearest_zip', 'condition_unknown_priced_as_dated']));
    // 2BR (1700 − 145) × dated 0.95 = 1477.25
    expect(vague.as_is_contract!.value).toBeCloseTo(1477.25, 6);
    expect(rentConfidence(0.25)).toBe(39); // sd = 0.19507; erf(0.36249) = 0.3917 → 39
  });

  it('returns nulls with a reason when no SAFMR applies', () => {
    const none = estimateRent({ ...TWO_FLAT, zip: '99999', lat: null }, SAFMR);
    expect(RentSchema.safeParse(none).success).toBe(true);
    expect(none.market).toBeNull();
    expect(none.as_is_contract).toBeNull();
    expect(none.warnings).toContain('safmr_unavailable');
  });
});

describe('the four rent fields are never blended', () => {
  it('as_is_contract ignores everything that only moves the post-reno rent', () => {
    const a = estimateRent(TWO_FLAT, SAFMR);
    const b = estimateRent({ ...TWO_FLAT, sqft: 3600 }, SAFMR);
    expect(b.as_is_contract).toEqual(a.as_is_contract);
    expect(b.stabilized_post_reno!.value).not.toBe(a.stabilized_post_reno!.value);
  });
  it('stabilized_post_reno ignores the as-is condition unless the cap binds', () => {
    const a = estimateRent({ ...TWO_FLAT, condition: 'dated' }, SAFMR);
    const b = estimateRent({ ...TWO_FLAT, condition: 'distressed' }, SAFMR);
    expect(b.stabilized_post_reno!.value).toBe(a.stabilized_post_reno!.value);
    expect(b.as_is_contract!.value).not.toBe(a.as_is_contract!.value);
  });
  it('context carries the 2BR SAFMR but no estimate is a mix of context and SAFMR mix', () => {
    const a = estimateRent(TWO_FLAT, SAFMR);
    // market is the as-is value exactly (not an average with context or the post-reno rent)
    expect(a.market).toBe(a.as_is_contract!.value);
    expect(a.market).not.toBe((a.as_is_contract!.value! + a.stabilized_post_reno!.value!) / 2);
    expect(a.context!.safmr_2br_equiv).toBe(1700);
    // rent_confidence is derived from the bands, never fed back into any value
    expect(['low', 'medium']).toContain(a.rent_confidence);
  });
});

describe('rentFigures (the money of estimateRent, for bulk scoring)', () => {
  it('gives the as-is, stabilized and Section 8 rents of estimateRent, and null without a SAFMR row', () => {
    for (const s of [TWO_FLAT, { ...TWO_FLAT, condition: null, beds: null, sqft: null }, { ...TWO_FLAT, units: 4, beds: 9, condition: 'new' as const }]) {
      const r = estimateRent(s, SAFMR);
      const f = rentFigures(s, SAFMR);
      expect(f).not.toBeNull();
      expect([f!.asIsUsd, f!.stabilizedUsd, f!.s8Usd]).toEqual([r.as_is_contract!.value, r.stabilized_post_reno!.value, r.s8]);
    }
    expect(rentFigures({ ...TWO_FLAT, zip: '99999', lat: null, lon: null }, SAFMR)).toBeNull();
    expect(estimateRent({ ...TWO_FLAT, zip: '99999', lat: null, lon: null }, SAFMR).market).toBeNull();
  });
});
