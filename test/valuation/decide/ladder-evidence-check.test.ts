// The ladder's plain pre-check (ladder-evidence-check.ts) checks exactly the schema's fields and never passes
// evidence LadderEvidenceSchema refuses, so skipping the zod parse for what it passes changes no decision.
import { describe, expect, it } from 'vitest';
import {
  AREA_CHECKS, CALIBRATION_CHECKS, evidenceLooksValid, GATE_CHECKS, HEDONIC_CHECKS, PRIOR_SALE_CHECKS, TIER1_CHECKS,
} from '../../../src/valuation/decide/ladder-evidence-check.js';
import {
  AreaContextEvidenceSchema, CalibrationSegmentSchema, HedonicEvidenceSchema, LadderEvidenceSchema, PriorSaleEvidenceSchema, SubjectGatesSchema, Tier1EvidenceSchema,
  type LadderEvidence,
} from '../../../src/valuation/decide/ladder-evidence.js';

const VALID: LadderEvidence = {
  subject: { county: 'cook', outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false },
  tier1: {
    method: 'renovated_comps', nComps: 8, valueUsd: 400_000, fsdPct: 12, ladderStep: 1, compRangeUsd: { low: 380_000, high: 420_000 }, luxuryThinComps: false,
    calibration: { segment: 'sfh_city', version: 'v1', q80Lo: 0.9, q80Hi: 1.1, confidenceP10: 60, display: 'point' }, modelValueUsd: 410_000,
    priorSale: { row: 12, saleDay: 19_000, priceUsd: 350_000, group: 'renovated', indexFactor: 1.1, carriedUsd: 385_000, logGap: -0.04 }, compsValueUsd: 415_000,
  },
  tier2: {
    segment: 'sfh_city', version: 'h1', displayEligible: true, locationResolved: true, valueUsd: 390_000, lowUsd: 350_000, highUsd: 430_000,
    sigmaPct: 14, confidenceP10: 50, locationBasis: 'tract', quarterUsed: '2026Q3',
  },
  areaContext: { valueUsd: 380_000, lowUsd: 350_000, highUsd: 410_000, confidence: 55, premium: { value: 0.2 }, basis: 'median' },
};

/** Field-level corruptions: wrong type, negative, non-finite, out of range, missing. */
const BAD_VALUES: unknown[] = ['x', -1, 0, Number.NaN, Number.POSITIVE_INFINITY, 101, 1.5, undefined, {}, [], true, null];

function corruptions(): Array<{ where: string; ev: unknown }> {
  const out: Array<{ where: string; ev: unknown }> = [];
  const parts: Array<[keyof LadderEvidence, string | null]> = [['subject', null], ['tier1', null], ['tier1', 'calibration'], ['tier1', 'compRangeUsd'], ['tier1', 'priorSale'], ['tier2', null], ['areaContext', null]];
  for (const [part, sub] of parts) {
    const target = (sub ? (VALID[part] as Record<string, unknown>)[sub] : VALID[part]) as Record<string, unknown>;
    for (const key of Object.keys(target)) {
      for (const bad of BAD_VALUES) {
        const ev = structuredClone(VALID) as unknown as Record<string, Record<string, Record<string, unknown>>>;
        const obj = sub ? ev[part][sub] : ev[part];
        obj[key] = bad as never;
        out.push({ where: `${part}${sub ? `.${sub}` : ''}.${key}=${String(bad)}`, ev });
      }
    }
  }
  return out;
}

describe('evidenceLooksValid', () => {
  it('checks exactly the fields of each schema', () => {
    expect(Object.keys(GATE_CHECKS).sort()).toEqual(Object.keys(SubjectGatesSchema.shape).sort());
    expect(Object.keys(TIER1_CHECKS).sort()).toEqual(Object.keys(Tier1EvidenceSchema.shape).sort());
    expect(Object.keys(CALIBRATION_CHECKS).sort()).toEqual(Object.keys(CalibrationSegmentSchema.shape).sort());
    expect(Object.keys(PRIOR_SALE_CHECKS).sort()).toEqual(Object.keys(PriorSaleEvidenceSchema.shape).sort());
    expect(Object.keys(HEDONIC_CHECKS).sort()).toEqual(Object.keys(HedonicEvidenceSchema.shape).sort());
    expect(Object.keys(AREA_CHECKS).sort()).toEqual(Object.keys(AreaContextEvidenceSchema.shape).sort());
    expect(Object.keys(LadderEvidenceSchema.shape).sort()).toEqual(['areaContext', 'subject', 'tier1', 'tier2']);
  });

  it('passes well-formed evidence the schema accepts, with and without the optional parts', () => {
    for (const ev of [VALID, { ...VALID, tier1: null, tier2: null, areaContext: null }, { ...VALID, tier1: { ...VALID.tier1!, valueUsd: null, calibration: null, modelValueUsd: undefined, priorSale: undefined, compsValueUsd: undefined } }, { ...VALID, tier1: { ...VALID.tier1!, priorSale: null, compsValueUsd: null } }]) {
      expect(LadderEvidenceSchema.safeParse(ev).success).toBe(true);
      expect(evidenceLooksValid(ev)).toBe(true);
    }
  });

  it('never passes a corruption the schema refuses (it may send more to zod, never fewer)', () => {
    const cases = corruptions();
    expect(cases.length).toBeGreaterThan(400);
    const leaks = cases.filter((c) => evidenceLooksValid(c.ev) && !LadderEvidenceSchema.safeParse(c.ev).success).map((c) => c.where);
    expect(leaks).toEqual([]);
    // and the cross-field rules: low > high, value outside the hedonic band, a value without its range
    expect(evidenceLooksValid({ ...VALID, tier1: { ...VALID.tier1!, compRangeUsd: { low: 5, high: 1 } } })).toBe(false);
    expect(evidenceLooksValid({ ...VALID, tier2: { ...VALID.tier2!, valueUsd: 500_000 } })).toBe(false);
    expect(evidenceLooksValid({ ...VALID, tier1: { ...VALID.tier1!, compRangeUsd: null } })).toBe(false);
  });
});
