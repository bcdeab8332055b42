// decideValuationDisplay: every row of the spec's display-ladder table and every suppression reason.
// Fixture numbers (test/contracts/support/valuation-fixtures.ts): Tier-1 value $452,345, calibration q80 [0.90, 1.12],
// comp IQR [$430,000, $470,000], fsd 10%, calibrated confidence_p10 58.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors/app-error.js';
import { decideValuationDisplay } from '../../../src/valuation/decide/ladder.js';
import { AREA, HEDONIC, calibration, evidence, tier1 } from '../../contracts/support/valuation-fixtures.js';

// Calibrated band on 452,345: low 0.90 × 452,345 = 407,110.5 → rounded down to $1,000 = 407,000;
// high 1.12 × 452,345 = 506,626.4 → rounded up = 507,000; value 452,345 → nearest $1,000 = 452,000.
const CAL_LOW = 407_000;
const CAL_HIGH = 507_000;

describe('decideValuationDisplay — Tier 1 rows', () => {
  it('≥5 comps and display `point`: point value with the calibrated interval, point-actionable', () => {
    const d = decideValuationDisplay(evidence({ tier1: tier1(8) }));
    expect(d.outcome).toBe('point');
    expect(d.pointActionable).toBe(true);
    expect(d.unscoredReason).toBeNull();
    expect(d.scoreBasis).toBe('arv');
    expect(d.arv).toMatchObject({ value: 452_000, low: CAL_LOW, high: CAL_HIGH, range_only: false, range_reason: null, method: 'renovated_comps', method_tier: 1, n_comps: 8, confidence_p10: 58, fsd: 10, ladder_step: 1 });
    expect(d.arv.interval).toEqual({ low: CAL_LOW, high: CAL_HIGH, coverage: 0.8, calibrated: true, segment: 'mf2_4_city', method: 'split_conformal', version: 'cal-test-1', widened_by_model_disagreement: null, calibration_fallback: null });
    // legacy: sd = 10·√(1 + 1/8) = 10.607; P(|Z·sd| ≤ 10) = erf(10/(10.607·√2)) = erf(0.6667) = 0.6542 → 65
    expect(d.arv.confidence).toBe(65);
    expect(d.artifactArv).toMatchObject({ value: 452_345, low: 407_110.5, tier: 1, range_only: false });
    expect(d.artifactArv?.high).toBeCloseTo(506_626.4, 6);
  });

  it.each(['range', 'suppress'] as const)('≥5 comps and display `%s`: range only with calibration_display_gate, calibrated interval kept', (display) => {
    const d = decideValuationDisplay(evidence({ tier1: tier1(6, { calibration: calibration(display) }) }));
    expect(d.outcome).toBe('range');
    expect(d.pointActionable).toBe(false);
    expect(d.unscoredReason).toBe('valuation_range_only');
    expect(d.arv).toMatchObject({ value: null, low: CAL_LOW, high: CAL_HIGH, range_only: true, range_reason: 'calibration_display_gate' });
    expect(d.artifactArv).toMatchObject({ value: 452_345, range_only: true, range_reason: 'calibration_display_gate' });
    expect(d.artifactArv?.interval?.calibrated).toBe(true);
  });

  it('≥5 comps without any calibration row: range only (display gate) on the comp IQR, no interval', () => {
    const d = decideValuationDisplay(evidence({ tier1: tier1(9, { calibration: null }) }));
    expect(d.arv).toMatchObject({ value: null, low: 430_000, high: 470_000, range_only: true, range_reason: 'calibration_display_gate', interval: null, confidence_p10: null });
  });

  it.each([3, 4])('%i comps with display `point`: range only, always, with thin_comps', (n) => {
    const d = decideValuationDisplay(evidence({ tier1: tier1(n) }));
    expect(d.outcome).toBe('range');
    expect(d.arv).toMatchObject({ value: null, range_only: true, range_reason: 'thin_comps', n_comps: n });
  });

  it('4 comps and display not point: combined reason thin_comps+calibration_display_gate', () => {
    const d = decideValuationDisplay(evidence({ tier1: tier1(4, { calibration: calibration('range') }) }));
    expect(d.arv.range_reason).toBe('thin_comps+calibration_display_gate');
  });

  it('each ladder step past 1 costs 8 confidence points', () => {
    const step1 = decideValuationDisplay(evidence({ tier1: tier1(8, { ladderStep: 1 }) })).arv.confidence!;
    const step3 = decideValuationDisplay(evidence({ tier1: tier1(8, { ladderStep: 3 }) })).arv.confidence!;
    expect(step1 - step3).toBe(16); // 65 − 2 × 8 = 49
  });

  it('Lake subjects are valued by lake_gis_comps', () => {
    const d = decideValuationDisplay(evidence({ subject: { county: 'lake', outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false }, tier1: tier1(8, { method: 'lake_gis_comps' }) }));
    expect(d.arv).toMatchObject({ method: 'lake_gis_comps', method_tier: 1, value: 452_000 });
  });

  it('a tier-1 method that does not match the county is a bug, not an outcome', () => {
    expect(() => decideValuationDisplay(evidence({ tier1: tier1(8, { method: 'lake_gis_comps' }) }))).toThrow(AppError);
  });
});

describe('decideValuationDisplay — approaches disagree', () => {
  it('comp vs model beyond 0.12 of their mean widens the band and warns', () => {
    // |452,345 − 380,000| / ((452,345 + 380,000)/2) = 72,345 / 416,172.5 = 0.1738 > 0.12
    // low = min(407,110.5, 0.90 × 380,000 = 342,000) = 342,000; high = max(506,626.4, 1.12 × 380,000) = 506,626.4
    const d = decideValuationDisplay(evidence({ tier1: tier1(8, { modelValueUsd: 380_000 }) }));
    expect(d.warnings).toEqual(['approaches_disagree']);
    expect(d.arv).toMatchObject({ value: 452_000, low: 342_000, high: CAL_HIGH });
    expect(d.arv.interval?.widened_by_model_disagreement).toBeCloseTo(72_345 / 416_172.5, 12);
  });

  it('within 0.12 nothing is widened', () => {
    // |452,345 − 440,000| / 446,172.5 = 0.0277
    const d = decideValuationDisplay(evidence({ tier1: tier1(8, { modelValueUsd: 440_000 }) }));
    expect(d.warnings).toEqual([]);
    expect(d.arv.interval?.widened_by_model_disagreement).toBeNull();
  });
});

describe('decideValuationDisplay — no Tier 1', () => {
  it('fewer than 3 comps, hedonic eligible in Cook with location resolved: Tier-2 range', () => {
    const d = decideValuationDisplay(evidence({ tier1: tier1(2), tier2: HEDONIC, areaContext: AREA }));
    expect(d.outcome).toBe('tier2_range');
    expect(d.pointActionable).toBe(false);
    // low 350,400 ↓ 350,000; high 480,900 ↑ 481,000; model value 410,250 → 410,000;
    // legacy confidence: erf(10 / (18·√2)) = 0.4215 → 42
    expect(d.arv).toMatchObject({ value: null, low: 350_000, high: 481_000, method: 'hedonic_v1', method_tier: 2, range_only: true, range_reason: 'hedonic_tier2_always_range', confidence: 42, confidence_p10: 41 });
    expect(d.arv.model).toEqual({ value: 410_000, location_basis: 'tract', quarter_used: '2026Q1', segment: 'mf2_4_city' });
    expect(d.arv.interval?.method).toBe('hedonic_sigma_x_conformal');
    expect(d.artifactArv).toBeNull();
    expect(d.arvNullReason).toBe('insufficient_renovated_comps');
  });

  it.each([
    ['not display-eligible', { ...HEDONIC, displayEligible: false }, 'cook'],
    ['location effect unresolved', { ...HEDONIC, locationResolved: false }, 'cook'],
    ['subject in Lake, hedonic fit on Cook', HEDONIC, 'lake'],
  ] as const)('hedonic %s: no Tier 2, area-context demotion instead', (_label, tier2, county) => {
    const d = decideValuationDisplay(evidence({ subject: { county, outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false }, tier1: null, tier2, areaContext: AREA }));
    expect(d.outcome).toBe('area_context');
    expect(d.arv.method).not.toBe('hedonic_v1');
  });

  it('no hedonic range but area context: demotion — arv suppressed, area context filled, capped, score basis area_estimate', () => {
    const d = decideValuationDisplay(evidence({ tier1: tier1(2), areaContext: AREA }));
    expect(d.outcome).toBe('area_context');
    expect(d.arv).toMatchObject({ value: null, low: null, high: null, method: 'suppressed', method_tier: 3, suppression_reason: 'insufficient_renovated_comps' });
    expect(d.areaContext).toMatchObject({ value: 380_450, label: 'Area estimate — not property-specific', method: 'nbhd_premium', confidence: 55 }); // min(70, 55)
    expect(d).toMatchObject({ scoreBasis: 'area_estimate', dealScoreCap: 65, unscoredReason: 'valuation_area_context', pointActionable: false });
  });

  it('no Tier 1, no hedonic, no area context: full suppression (INV-5)', () => {
    const d = decideValuationDisplay(evidence({ tier1: null }));
    expect(d.outcome).toBe('suppressed');
    expect(d.arv).toMatchObject({ value: null, low: null, high: null, method: 'suppressed', method_tier: 3, suppression_reason: 'insufficient_renovated_comps', interval: null, range_only: null });
    expect(d).toMatchObject({ unscoredReason: 'valuation_suppressed', scoreBasis: null, artifactArv: null, arvNullReason: 'insufficient_renovated_comps' });
  });

  it('area context beside a Tier-1 point stays context only', () => {
    const d = decideValuationDisplay(evidence({ areaContext: AREA }));
    expect(d.outcome).toBe('point');
    expect(d.areaContext?.value).toBe(380_450);
    expect(d.arv.value).toBe(452_000);
    expect(d.scoreBasis).toBe('arv');
  });
});

describe('decideValuationDisplay — every suppression reason', () => {
  const gates = { county: 'cook' as const, outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false };

  it.each([
    ['outside_mapped_tracts', { ...gates, outsideMappedTracts: true, tractNotIngested: true, condoModelUnavailable: true }],
    ['tract_not_ingested', { ...gates, tractNotIngested: true, condoModelUnavailable: true }],
    ['condo_model_unavailable', { ...gates, condoModelUnavailable: true }],
  ] as const)('subject gate %s suppresses outright, even with comps, hedonic and area context', (reason, subject) => {
    const d = decideValuationDisplay(evidence({ subject, tier1: tier1(8), tier2: HEDONIC, areaContext: AREA }));
    expect(d.outcome).toBe('suppressed');
    expect(d.arv).toMatchObject({ method: 'suppressed', value: null, suppression_reason: reason });
    expect(d.areaContext).toBeNull();
  });

  it('dispersion above the 0.35 gate: dispersion_exceeds_threshold (35% itself still serves)', () => {
    expect(decideValuationDisplay(evidence({ tier1: tier1(8, { fsdPct: 35.01 }) })).arv.suppression_reason).toBe('dispersion_exceeds_threshold');
    expect(decideValuationDisplay(evidence({ tier1: tier1(8, { fsdPct: 35 }) })).outcome).toBe('point');
  });

  it('luxury subject with thin luxury comps: luxury_thin_comps, with or without 3 comps', () => {
    expect(decideValuationDisplay(evidence({ tier1: tier1(8, { luxuryThinComps: true }) })).arv.suppression_reason).toBe('luxury_thin_comps');
    expect(decideValuationDisplay(evidence({ tier1: tier1(1, { luxuryThinComps: true }) })).arv.suppression_reason).toBe('luxury_thin_comps');
  });

  it('fewer than 3 comps: insufficient_renovated_comps', () => {
    expect(decideValuationDisplay(evidence({ tier1: tier1(2) })).arv.suppression_reason).toBe('insufficient_renovated_comps');
  });

  it('a Tier-1 failure still falls through to the Tier-2 range', () => {
    const d = decideValuationDisplay(evidence({ tier1: tier1(8, { fsdPct: 50 }), tier2: HEDONIC }));
    expect(d.outcome).toBe('tier2_range');
    expect(d.arvNullReason).toBe('dispersion_exceeds_threshold');
  });
});

describe('decideValuationDisplay — malformed evidence', () => {
  it.each([
    ['more than 12 comps', evidence({ tier1: tier1(13) })],
    ['q80Lo above q80Hi', evidence({ tier1: tier1(8, { calibration: { ...calibration(), q80Lo: 1.2, q80Hi: 0.9 } }) })],
    ['a value without its comp range', evidence({ tier1: tier1(8, { compRangeUsd: null }) })],
    ['a value without its dispersion', evidence({ tier1: tier1(8, { fsdPct: null }) })],
    ['a non-finite value', evidence({ tier1: tier1(8, { valueUsd: Number.NaN }) })],
  ])('%s throws internal_error', (_label, ev) => {
    expect(() => decideValuationDisplay(ev)).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });
});
