// buildArtifact / deriveDisplayedValuation: subject parity, hash over the listed inputs, Tier-1-only artifact arv,
// the displayed value derived from the artifact, and refusal of mismatched or contract-breaking pairs.
import { describe, expect, it } from 'vitest';
import { ArtifactSchema } from '../../src/contracts/artifact.js';
import { DISCLOSURE, ValuationSchema } from '../../src/contracts/valuation.js';
import { buildArtifact, deriveDisplayedValuation, forwardValueBasis, type BuildArtifactInput } from '../../src/valuation/artifact.js';
import { inputsHash } from '../../src/valuation/inputs-hash.js';
import { decideValuationDisplay } from '../../src/valuation/decide/ladder.js';
import { AREA, AS_IS, MODEL, REHAB, REJECTED, RENT, comps, evidence, hashParts, pipeline, subject, tax, tier1 } from '../contracts/support/valuation-fixtures.js';

function input(over: Partial<BuildArtifactInput> = {}): BuildArtifactInput {
  const decision = decideValuationDisplay(evidence({ tier1: tier1(8, { modelValueUsd: 380_000 }), areaContext: AREA }));
  return {
    modelVersion: MODEL, asOf: '2026-11-21', subject: subject(), compsUsed: comps(8), compsRejected: REJECTED,
    fallbackChain: [{ source: 'corpus', served: true, note: 'served from the corpus' }], warnings: ['as_is_thin_evidence'],
    vintages: { sales: 'synthetic-test' }, asIs: AS_IS, decision, hashParts: hashParts(), ...over,
  };
}

describe('buildArtifact', () => {
  it('holds the unrounded Tier-1 record, evidence and the hash over the listed inputs', () => {
    const inp = input();
    const art = buildArtifact(inp);
    expect(ArtifactSchema.parse(art)).toEqual(art);
    expect(art.inputs_hash).toBe(inputsHash({ ...inp.hashParts, subject: inp.subject }));
    expect(art.arv).toMatchObject({ value: 452_345, tier: 1, method: 'renovated_comps', n_comps: 8, range_only: false });
    expect(art.arv_null_reason).toBeNull();
    expect(art.comps_used).toHaveLength(8);
    expect(art.comps_rejected).toEqual(REJECTED);
    expect(art.area_context?.value).toBe(380_450); // unrounded evidence; rounding is display-only
    expect(art.warnings).toEqual(['as_is_thin_evidence', 'approaches_disagree']); // input then ladder, deduplicated
  });

  it('has a null arv with its reason when no comp-stratified ARV exists', () => {
    const decision = decideValuationDisplay(evidence({ tier1: tier1(2), areaContext: AREA }));
    const art = buildArtifact(input({ decision, compsUsed: [], fallbackChain: [{ source: 'corpus', served: false, note: '2 comps' }, { source: 'none', served: false, note: 'no further source' }] }));
    expect(art.arv).toBeNull();
    expect(art.arv_null_reason).toBe('insufficient_renovated_comps');
    expect(art.fallback_chain.map((f) => f.source)).toEqual(['corpus', 'none']);
  });

  it.each([
    ['a hash model version that is not model_version', { hashParts: hashParts({ versions: { model: 'other', registry: 'r' } }) }],
    ['an empty fallback chain', { fallbackChain: [] }],
    ['comps_used not matching the Tier-1 count', { compsUsed: comps(7) }],
  ])('refuses %s', (_label, over) => {
    expect(() => buildArtifact(input(over))).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });
});

describe('deriveDisplayedValuation', () => {
  const parts = { rent: RENT, rehab: REHAB, tax: tax('arv') };

  it('derives the displayed valuation from the artifact, with subject parity and the disclosure', () => {
    const inp = input();
    const art = buildArtifact(inp);
    const v = deriveDisplayedValuation(art, inp.decision, parts);
    expect(ValuationSchema.parse(v)).toEqual(v);
    expect(v.subject).toBe(art.subject);
    expect(v.artifact).toBe(art);
    expect(v).toMatchObject({ model_version: MODEL, as_of: '2026-11-21', inputs_hash: art.inputs_hash, disclosure: DISCLOSURE });
    expect(v.arv.value).toBe(452_000); // 452,345 → nearest $1,000
    expect(v.arv.comps).toEqual(art.comps_used);
    expect(v.value_as_is).toEqual({ ...AS_IS, value: 251_000 }); // 251,234 → 251,000; bounds already on $1,000
    expect(v.display).toEqual({ outcome: 'point', point_actionable: true, unscored_reason: null, score_basis: 'arv', deal_score_cap: null });
  });

  it('takes the Tier-1 number from the artifact: a decision from another valuation is refused', () => {
    const inp = input();
    const art = buildArtifact(inp);
    const other = decideValuationDisplay(evidence({ tier1: tier1(8, { valueUsd: 500_000 }) }));
    expect(() => deriveDisplayedValuation(art, other, parts)).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });

  it('refuses a forward tax on the ARV when the outcome is not a point', () => {
    const decision = decideValuationDisplay(evidence({ tier1: tier1(4) }));
    const art = buildArtifact(input({ decision, compsUsed: comps(4) }));
    expect(() => deriveDisplayedValuation(art, decision, parts)).toThrow(/RANGE_ONLY tax.target_basis/);
    expect(deriveDisplayedValuation(art, decision, { ...parts, tax: tax('price') }).arv.value).toBeNull();
  });

  it('lists comps in arv only behind a Tier-1 value; the artifact keeps the evidence either way', () => {
    const { valuation } = pipeline(evidence({ tier1: tier1(2), areaContext: AREA }));
    expect(valuation.arv.comps).toEqual([]);
    expect(valuation.artifact?.comps_rejected).toEqual(REJECTED);
    expect(valuation.area_context).toMatchObject({ value: 380_000, confidence: 55 }); // 380,450 → 380,000
  });

  it('can omit the embedded artifact', () => {
    const inp = input();
    expect(deriveDisplayedValuation(buildArtifact(inp), inp.decision, { ...parts, includeArtifact: false }).artifact).toBeNull();
  });

  it('forwardValueBasis: arv only for a point, the displayed area estimate for area context, else price', () => {
    expect(forwardValueBasis(decideValuationDisplay(evidence()))).toEqual({ basis: 'arv', valueUsd: 452_000 });
    expect(forwardValueBasis(decideValuationDisplay(evidence({ tier1: tier1(4), areaContext: AREA })))).toEqual({ basis: 'price', valueUsd: null });
    expect(forwardValueBasis(decideValuationDisplay(evidence({ tier1: null, areaContext: AREA })))).toEqual({ basis: 'area_estimate', valueUsd: 380_000 });
  });
});
