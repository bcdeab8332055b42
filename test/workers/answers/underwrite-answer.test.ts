// deep_underwrite_asset through its engine binding (valuationEngine → underwriteBundle → underwriteAnswerOf): a
// range-only valuation answers the valuation with every economics field null and an unscored_reason, validating
// against the tool's output schema; a point valuation carries the pro-forma.
import { describe, expect, it } from 'vitest';
import { DeepUnderwriteInputSchema } from '../../../src/contracts/inputs.js';
import { operationById } from '../../../src/contracts/operations.js';
import { valuationEngine } from '../../../src/app/engine.js';
import type { UnderwriteBundle } from '../../../src/workers/answers/bundle.js';
import { underwriteInputOf } from '../../../src/scoring/score-subject.js';
import { riskReport } from '../../../src/risk/report.js';
import type { Store } from '../../../src/store/store.js';
import { underwrite } from '../../../src/underwriting/underwrite.js';
import type { ValuationService } from '../../../src/app/valuation-service.js';
import { calibration, evidence, pipeline, tier1 } from '../../contracts/support/valuation-fixtures.js';
import type { Valuation } from '../../../src/contracts/valuation.js';

const PRICE_USD = 250_000;

/** A bundle the way the worker task builds it, from a fixture valuation (no corpus needed). */
function bundleOf(v: Valuation): UnderwriteBundle {
  const underwriting = underwrite({ ...underwriteInputOf(v, true, PRICE_USD), strategy: 'brrrr' });
  // No risk evidence at all: the report still answers (flags read "no evidence"); the answer does not embed it.
  const risk = riskReport({ priceUsd: PRICE_USD, taxCurrentAnnualUsd: null, taxPredictiveAnnualUsd: null, taxShockFlag: null, basement: null, nearbySales: null, nearbyDistressedSales: null, lastDeedType: null, listingEvents: [], listingUnits: null, legalUnits: null, appraisalCeilingFlag: null, maxRenoSale24moUsd: null, yearBuilt: null, rentConfidence: null });
  return { valuation: v, underwriting, risk };
}

/** The engine with a valuation service whose worker answers a fixed bundle; deepUnderwrite never reads the store. */
function engineAnswering(b: UnderwriteBundle) {
  const svc = { underwriteBundle: async () => b } as unknown as ValuationService;
  return valuationEngine(svc, {} as Store);
}

const input = DeepUnderwriteInputSchema.parse({ lat: 41.88, lon: -87.7, units: 2 });
const subject = { units: 2, priceUsd: PRICE_USD, listingId: null };
const schema = operationById('deep_underwrite_asset')!.output;

describe('deep_underwrite_asset engine binding', () => {
  it('a range-only valuation yields null economics, offers, returns, cashflow and strategy_scores with unscored_reason', async () => {
    // tier1(8) with a `range` calibration display: the legacy gates pass but the ladder refuses a point.
    const { valuation: v } = pipeline(evidence({ tier1: tier1(8, { calibration: calibration('range') }) }));
    const out = schema.parse(await engineAnswering(bundleOf(v)).deepUnderwrite!(input, subject)) as Record<string, unknown>;
    expect(out.valuation).not.toBeNull();
    expect(out.refusal).toBeNull();
    expect(out.unscored_reason).toEqual(expect.any(String));
    expect([out.offers, out.dscr, out.returns, out.strategy_scores, out.cashflow_projection]).toEqual([null, null, null, null, null]);
    expect(out.disclosure).toMatch(/not an appraisal/);
    expect(out.as_of).toBe(v.as_of);
    expect(out.model_versions).toMatchObject({ model: v.model_version });
  });

  it('a point valuation carries offers and strategy_scores, and the inputs are echoed', async () => {
    // tier1(8) default fixture: calibration display point, so the ARV is a point.
    const { valuation: v } = pipeline(evidence());
    const out = schema.parse(await engineAnswering(bundleOf(v)).deepUnderwrite!(input, subject)) as Record<string, unknown>;
    expect(out.offers).not.toBeNull();
    expect(Object.keys(out.strategy_scores as object).sort()).toEqual(['brrrr', 'flip', 'hold', 'house_hack']);
    expect(out.assumptions).toMatchObject({ lat: 41.88, lon: -87.7, units: 2, strategy: 'brrrr' });
    if (out.unscored_reason === null) expect(out.cashflow_projection).not.toBeNull();
    else expect([out.dscr, out.returns, out.cashflow_projection]).toEqual([null, null, null]);
  });
});
