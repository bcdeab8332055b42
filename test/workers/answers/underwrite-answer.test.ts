// deep_underwrite_asset's answer (underwriteAnswerOf) from an Appraisal built the way the worker builds one, from
// fixture valuations (no corpus): a range-only valuation answers the valuation with every economics field null and an
// unscored_reason; a point valuation carries offers, returns, strategy scores; an unknown rehab leaves the chosen
// strategy unscored, names what to pass, and still shows the hold at the purchase price. Every answer validates
// against the tool's output schema.
import { describe, expect, it } from 'vitest';
import { DeepUnderwriteInputSchema } from '../../../src/contracts/inputs.js';
import { operationById } from '../../../src/contracts/operations.js';
import type { Valuation } from '../../../src/contracts/valuation.js';
import { underwriteInputOf } from '../../../src/scoring/score-subject.js';
import { underwrite } from '../../../src/underwriting/underwrite.js';
import type { Appraisal } from '../../../src/workers/answers/appraise.js';
import { underwriteAnswerOf } from '../../../src/workers/answers/underwrite-answer.js';
import { calibration, evidence, pipeline, tier1 } from '../../contracts/support/valuation-fixtures.js';

const PRICE_USD = 250_000;
const input = DeepUnderwriteInputSchema.parse({ lat: 41.88, lon: -87.7, units: 2 });
const schema = operationById('deep_underwrite_asset')!.output;

/** An Appraisal as appraise() builds it, from a fixture valuation; `rehab` replaces the valuation's rehab estimate. */
function appraisalOf(v: Valuation, rehab?: number | null): Appraisal {
  const base = underwriteInputOf(v, true, PRICE_USD);
  const underwriting = underwrite({ ...base, rehab: rehab === undefined ? base.rehab : rehab, strategy: 'brrrr' });
  return { refusal: null, subject: v.subject, valuation: v, evidence: null, underwriting, risk: null, scores: null };
}

const answer = (a: Appraisal) => schema.parse(underwriteAnswerOf(a, 'brrrr', { ...input }, '2026-11-24T00:00:00Z')) as Record<string, unknown>;

describe('underwriteAnswerOf', () => {
  it('a range-only valuation yields null economics, offers, returns, cashflow and strategy_scores with unscored_reason', () => {
    // tier1(8) with a `range` calibration display: the legacy gates pass but the ladder refuses a point.
    const { valuation: v } = pipeline(evidence({ tier1: tier1(8, { calibration: calibration('range') }) }));
    const out = answer(appraisalOf(v));
    expect(out.valuation).not.toBeNull();
    expect(out.refusal).toBeNull();
    expect(out.unscored_reason).toEqual(expect.any(String));
    expect([out.offers, out.dscr, out.returns, out.strategy_scores, out.cashflow_projection]).toEqual([null, null, null, null, null]);
    expect(out.missing_inputs).toEqual([]);
    expect(out.disclosure).toMatch(/not an appraisal/);
    expect(out.as_of).toBe(v.as_of);
    expect(out.model_versions).toMatchObject({ model: v.model_version });
  });

  it('a point valuation carries offers, and the inputs are echoed', () => {
    // tier1(8) default fixture: calibration display point, so the ARV is a point.
    const { valuation: v } = pipeline(evidence());
    const out = answer(appraisalOf(v, 40_000));
    expect(out.offers).not.toBeNull();
    expect(out.assumptions).toMatchObject({ lat: 41.88, lon: -87.7, units: 2, strategy: 'brrrr' });
    if (out.unscored_reason === null) expect(out.cashflow_projection).not.toBeNull();
  });

  it('without a rehab figure the chosen strategy is unscored, names rehab or sqft, and the hold at the purchase price is computed', () => {
    const { valuation: v } = pipeline(evidence());
    const out = answer(appraisalOf(v, null));
    expect(out.unscored_reason).toBe('rehab_unknown');
    expect(out.missing_inputs).toEqual(['rehab', 'sqft']);
    expect(out.dscr).toBeNull();
    const returns = out.returns as Record<string, unknown>;
    expect(returns.rehab_basis).toBe('excluded_unknown');
    expect(returns.noi).toEqual(expect.any(Number));
    expect(returns.dscr).toEqual(expect.any(Number));
    expect(returns.economics_factor).toBeNull(); // shown, never scored
  });

  it('a refusal is a complete answer with every economics field null', () => {
    const out = answer({ refusal: { code: 'units_required', message: 'units_required: pass units' }, subject: null, valuation: null, evidence: null, underwriting: null, risk: null, scores: null });
    expect(out.refusal).toMatchObject({ code: 'units_required' });
    expect([out.valuation, out.offers, out.returns, out.strategy_scores]).toEqual([null, null, null, null]);
  });
});
