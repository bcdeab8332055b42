// Hand-built inputs for valuation contract and ladder tests: subjects, comps, calibration rows, rent/rehab/tax
// parts, and a pipeline helper (ladder → artifact → displayed valuation). Numbers are illustrative, not data.
import type { Comp, CompRejection } from '../../../src/contracts/comp.js';
import type { RehabContract } from '../../../src/contracts/rehab.js';
import type { Rent } from '../../../src/contracts/rent.js';
import type { Subject } from '../../../src/contracts/subject.js';
import type { Tax } from '../../../src/contracts/tax.js';
import type { Valuation } from '../../../src/contracts/valuation.js';
import type { AsIs } from '../../../src/contracts/as-is.js';
import { buildArtifact, deriveDisplayedValuation, forwardValueBasis } from '../../../src/valuation/artifact.js';
import type { InputsHashParts } from '../../../src/valuation/inputs-hash.js';
import { decideValuationDisplay, type LadderDecision } from '../../../src/valuation/decide/ladder.js';
import type { CalibrationSegment, LadderEvidence, Tier1Evidence } from '../../../src/valuation/decide/ladder-evidence.js';

export const MODEL = 'avm-test-1';

export function subject(county: 'cook' | 'lake' = 'cook'): Subject {
  return {
    key: county === 'cook' ? 'pin:16011140230000' : 'pin:1234567890',
    listing_id: null,
    address: '123 Test St',
    lat: county === 'cook' ? 41.89 : 42.25,
    lon: county === 'cook' ? -87.72 : -87.84,
    tract_geoid: county === 'cook' ? '17031230100' : '17097860100',
    county,
    price: 300_000,
    price_source: 'caller',
    units: 2,
    units_source: 'caller',
    beds: 4,
    sqft: 2000,
    year_built: 1925,
    property_type: 'mf2_4',
    condition: null,
    condition_source: 'unknown',
  };
}

/** Comp i: renovated, price 400k + 10k·i, index factor 1.02, no GLA adjustment. */
export function comp(i: number): Comp {
  return {
    pin: `1601114023${String(1000 + i)}`,
    price: 400_000 + 10_000 * i,
    indexed_price: (400_000 + 10_000 * i) * 1.02,
    index_factor: 1.02,
    gla_adj: null,
    sale_year: 2026,
    sale_date: '2026-03-01',
    dist_mi: 0.2 + 0.01 * i,
    lat: 41.89 + 0.001 * i,
    lon: -87.72,
    sqft: 2000,
    beds: 4,
    condition: 'renovated',
    condition_source: 'hedonic',
    condition_prob: 0.7,
    similarity: 0.8,
  };
}
export const comps = (n: number): Comp[] => Array.from({ length: n }, (_, i) => comp(i));

export const REJECTED: CompRejection[] = [{ pin: '16011140239999', reason: 'quitclaim_deed', sale_date: '2026-01-05', price: 90_000, dist_mi: 0.3, lat: 41.894, lon: -87.716 }];

export function calibration(display: CalibrationSegment['display'] = 'point'): CalibrationSegment {
  return { segment: 'mf2_4_city', version: 'cal-test-1', q80Lo: 0.9, q80Hi: 1.12, confidenceP10: 58, display };
}

/** Tier-1 evidence: n comps, value $452,345, fsd 10%, ladder step 1, comp IQR [430k, 470k]. */
export function tier1(n: number, over: Partial<Tier1Evidence> = {}): Tier1Evidence {
  return {
    method: 'renovated_comps',
    nComps: n,
    valueUsd: n >= 3 ? 452_345 : null,
    fsdPct: 10,
    ladderStep: 1,
    compRangeUsd: n >= 3 ? { low: 430_000, high: 470_000 } : null,
    luxuryThinComps: false,
    calibration: calibration('point'),
    ...over,
  };
}

export function evidence(over: Partial<LadderEvidence> = {}): LadderEvidence {
  return {
    subject: { county: 'cook', outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false },
    tier1: tier1(8),
    tier2: null,
    areaContext: null,
    ...over,
  };
}

export const HEDONIC = {
  segment: 'mf2_4_city', version: 'hed-test-1', displayEligible: true, locationResolved: true,
  valueUsd: 410_250, lowUsd: 350_400, highUsd: 480_900, sigmaPct: 18, confidenceP10: 41, locationBasis: 'tract', quarterUsed: '2026Q1',
};

export const AREA = { valueUsd: 380_450, lowUsd: 320_000, highUsd: 445_000, confidence: 70, premium: { value: 0.12 }, basis: 'tract_premium' };

export const RENT: Rent = {
  market: 1800, reno: 2100, s8: 2000, method: 'safmr_anchored', mu: 0, confidence: 60,
  unit_mix: [{ beds: 2, count: 2, safmr: 2000, est: 1800 }], warnings: [],
  as_is_contract: { value: 1800, low: 1600, high: 2000, confidence: 60, interval_pct: 0.12, evidence: [] },
  stabilized_post_reno: { value: 2100, low: 1850, high: 2350, confidence: 55, interval_pct: 0.12, evidence: [] },
  context: { acs_gross: null, safmr_2br_equiv: 2000, zori_zip: 1900 }, rent_confidence: 'medium',
};
export const REHAB: RehabContract = { estimate: 60_000, scope: 'moderate', psf_base: 30, multipliers: { violations: 1, age: 1, mechanicals: 1 } };
export function tax(targetBasis: Tax['target_basis']): Tax {
  return { current_annual: 6000, predictive_annual: 7500, target_basis: targetBasis, county: 'cook', method: 'cook_equalized' };
}
export const AS_IS: AsIs = { value: 251_234, low: 230_000, high: 270_000, n_comps: 4, as_is_basis: 'primary' };

export function hashParts(over: Partial<InputsHashParts> = {}): Omit<InputsHashParts, 'subject'> {
  return {
    tract: { geoid: '17031230100', segment: 'mf2_4_city' },
    assumptions: { prop_type: 'mf2_4', owner_occupied: false },
    evidence: { comps: comps(8).map((c) => c.pin), rejected: { quitclaim_deed: [90210] }, timeIndex: { q: '2026Q1', factor: 1.02 }, flipPairs: [] },
    provenance: { snapshot: 'snap-1', source: 'corpus' },
    assetSlices: { calibration: 'mf2_4_city@cal-test-1' },
    versions: { model: MODEL, registry: 'test-registry' },
    ...over,
  };
}

/** Runs the serving pipeline on hand-built evidence; comps_used matches the Tier-1 comp count. */
export function pipeline(ev: LadderEvidence, opts: { asIs?: AsIs | null; county?: 'cook' | 'lake' } = {}): { decision: LadderDecision; valuation: Valuation } {
  const decision = decideValuationDisplay(ev);
  const n = decision.artifactArv?.n_comps ?? 0;
  const artifact = buildArtifact({
    modelVersion: MODEL, asOf: '2026-11-21', subject: subject(opts.county ?? (ev.subject.county === 'lake' ? 'lake' : 'cook')),
    compsUsed: comps(n), compsRejected: REJECTED, fallbackChain: [{ source: 'corpus', served: n > 0, note: 'test corpus' }],
    warnings: [], vintages: { sales: 'synthetic-test' }, asIs: opts.asIs === undefined ? AS_IS : opts.asIs, decision, hashParts: hashParts(),
  });
  const valuation = deriveDisplayedValuation(artifact, decision, { rent: RENT, rehab: REHAB, tax: tax(forwardValueBasis(decision).basis) });
  return { decision, valuation };
}
