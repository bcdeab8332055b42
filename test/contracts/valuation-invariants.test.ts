// assertValuationInvariants: a clean pipeline valuation passes; each rule catches its own breach.
import { describe, expect, it } from 'vitest';
import type { Valuation } from '../../src/contracts/valuation.js';
import { assertValuationInvariants } from '../../src/contracts/valuation-invariants.js';
import { AREA, HEDONIC, evidence, pipeline, tax, tier1 } from './support/valuation-fixtures.js';

const point = (): Valuation => structuredClone(pipeline(evidence()).valuation);
const range = (): Valuation => structuredClone(pipeline(evidence({ tier1: tier1(4) })).valuation);
const suppressed = (): Valuation => structuredClone(pipeline(evidence({ tier1: null })).valuation);
const tier2 = (): Valuation => structuredClone(pipeline(evidence({ tier1: null, tier2: HEDONIC })).valuation);
const tier2Lake = (): Valuation => structuredClone(pipeline(evidence({ subject: { county: 'lake', outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false }, tier1: null, tier2: { ...HEDONIC, segment: 'mf2_4_lake' } })).valuation);
const area = (): Valuation => structuredClone(pipeline(evidence({ tier1: null, areaContext: AREA })).valuation);

const rules = (v: Valuation): string[] => assertValuationInvariants(v).map((x) => x.rule);

describe('assertValuationInvariants', () => {
  it.each([['point', point], ['range', range], ['suppressed', suppressed], ['tier-2', tier2], ['tier-2 from a Lake segment', tier2Lake], ['area-context', area]])('a %s valuation from the pipeline has no violation', (_label, make) => {
    expect(assertValuationInvariants(make())).toEqual([]);
  });

  it.each<[string, string, () => Valuation, (v: Valuation) => void]>([
    ['INV-5', 'a suppressed arv with a value', suppressed, (v) => { v.arv.value = 400_000; }],
    ['INV-5', 'a suppressed arv without reason', suppressed, (v) => { v.arv.suppression_reason = null; }],
    ['INV-5', 'tier 3 with a non-suppressed method', point, (v) => { v.arv.method_tier = 3; }],
    ['INV-8', 'a dated comp in arv.comps (as-is evidence blended in)', point, (v) => { v.arv.comps![0].condition = 'dated'; }],
    ['RANGE_ONLY', 'a range-only arv that shows a value', range, (v) => { v.arv.value = 452_000; }],
    ['RANGE_ONLY', 'a range-only arv taxed on the ARV', range, (v) => { v.tax = tax('arv'); }],
    ['RANGE_ONLY', 'thin comps without thin_comps reason', range, (v) => { v.arv.range_reason = 'calibration_display_gate'; }],
    ['POINT', 'a point without its calibrated interval', point, (v) => { v.arv.interval = null; }],
    ['POINT', 'a point on 4 comps', point, (v) => { v.arv.n_comps = 4; v.arv.comps = v.arv.comps!.slice(0, 4); }],
    ['TIER', 'hedonic_v1 not range-only', tier2, (v) => { v.arv.range_only = false; }],
    ['TIER', 'hedonic_v1 fit on Cook for a Lake subject', tier2, (v) => { v.subject.county = 'lake'; }],
    ['TIER', 'hedonic_v1 fit on Lake for a Cook subject', tier2Lake, (v) => { v.subject.county = 'cook'; }],
    ['TIER', 'renovated_comps for a Lake subject', point, (v) => { v.subject.county = 'lake'; }],
    ['GATE', 'a tier-1 value above the dispersion gate', point, (v) => { v.arv.fsd = 36; }],
    ['ORDER', 'low above value', point, (v) => { v.arv.low = 460_000; }],
    ['COMP', 'a GLA adjustment over 15%', point, (v) => { v.arv.comps![0].gla_adj = 0.16 * v.arv.comps![0].indexed_price; }],
    ['AREA_CONTEXT', 'an area_estimate tax basis without area context', suppressed, (v) => { v.tax = tax('area_estimate'); }],
    ['DISPLAY', 'point_actionable on a range', range, (v) => { v.display!.point_actionable = true; }],
    ['DISPLAY', 'an area-estimate score above 65', area, (v) => { v.display!.deal_score_cap = 70; }],
    ['RENT', 'rent.market not the alias of as_is_contract.value', point, (v) => { v.rent.market = 1; }],
    ['PARITY', 'artifact.subject differs from subject', point, (v) => { v.artifact!.subject = { ...v.artifact!.subject, units: 4 }; }],
    ['PARITY', 'artifact inputs_hash differs', point, (v) => { v.artifact!.inputs_hash = 'b'.repeat(64); }],
    ['PARITY', 'a displayed tier-1 arv without artifact.arv', point, (v) => { v.artifact!.arv = null; v.artifact!.arv_null_reason = 'insufficient_renovated_comps'; }],
  ])('%s: catches %s', (rule, _label, make, breach) => {
    const v = make();
    breach(v);
    expect(rules(v)).toContain(rule);
  });
});
