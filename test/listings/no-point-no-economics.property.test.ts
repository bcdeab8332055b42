// Property (fast-check): whatever the evidence, when the valuation is not a point no listing row, score record or
// /api/underwrite response carries a strategy score, offer, NOI, DSCR, CoC or cashflow; comp_arv is absent then.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScoredListing } from '../../src/listings/rows.js';
import { scoreValuation, underwriteInputOf } from '../../src/scoring/score-subject.js';
import { buildUnderwriteResponse } from '../../src/workers/answers/underwrite-response.js';
import { riskReport } from '../../src/risk/report.js';
import { rankToPercentiles } from '../../src/scoring/percentile.js';
import { STRATEGIES } from '../../src/underwriting/types.js';
import { underwrite } from '../../src/underwriting/underwrite.js';
import { pointArvUsd } from '../../src/valuation/artifact.js';
import { AREA, HEDONIC, calibration, evidence, pipeline, tier1 } from '../contracts/support/valuation-fixtures.js';
import { listing } from './support.js';

const ECON_KEYS = ['noi', 'dscr', 'cash_on_cash', 'max_offer', 'max_offer_70_rule', 'brrrr_offer', 'profit', 'cashflow', 'economics_factor'] as const;

const caseArb = fc.record({
  n: fc.integer({ min: 0, max: 12 }),
  display: fc.constantFrom(null, 'point' as const, 'range' as const, 'suppress' as const),
  fsdPct: fc.double({ min: 0, max: 60, noNaN: true }),
  hedonic: fc.boolean(),
  area: fc.boolean(),
  priceUsd: fc.double({ min: 20_000, max: 900_000, noNaN: true }),
  strategy: fc.constantFrom(...STRATEGIES),
  chicago: fc.boolean(),
});

describe('economics stay locked unless the valuation is a point', () => {
  it('holds for the score record, the stored listing row and the /api/underwrite response', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const ev = evidence({ tier1: tier1(c.n, { fsdPct: c.fsdPct, calibration: c.display === null ? null : calibration(c.display) }), tier2: c.hedonic ? HEDONIC : null, areaContext: c.area ? AREA : null });
        const { valuation: v } = pipeline(ev);
        const uw = underwrite({ ...underwriteInputOf(v, c.chicago, c.priceUsd), strategy: c.strategy });
        const score = scoreValuation('S1', v, uw);
        const pct = rankToPercentiles([{ id: 'S1', raw: score.raw }, { id: 'S2', raw: { flip: 0.4, brrrr: 0.4, hold: 0.4, house_hack: 0.4 } }])[0].percentiles;
        const row = buildScoredListing({ listing: listing('S1'), score, percentiles: pct, runId: 'r', runKind: 'manual', scoredAt: 't', firstSeenAt: 't', dedupeKey: 'k' });
        const res = buildUnderwriteResponse(v, { tract: null, risk: riskReport({ priceUsd: c.priceUsd, taxCurrentAnnualUsd: null, taxPredictiveAnnualUsd: null, taxShockFlag: null, taxTargetBasis: null, basement: null, nearbySales: null, nearbyDistressedSales: null, lastDeedType: null, listingEvents: [], listingUnits: null, legalUnits: null, appraisalCeilingFlag: null, maxRenoSale24moUsd: null, yearBuilt: null, rentConfidence: null }), underwriting: uw, scores: null });
        if (pointArvUsd(v) !== null) return;
        for (const s of STRATEGIES) {
          expect(score.raw[s]).toBeNull();
          expect(score.economics[s]).toBeNull();
          expect(row.percentiles[s]).toBeNull();
          for (const k of ECON_KEYS) expect(uw.strategies[s].economics[k]).toBeNull();
          expect(uw.strategies[s].unscored_reason).not.toBeNull();
        }
        expect(row.deal_score).toBeNull();
        expect(row.strategy_scores).toBeNull();
        expect(row.investor_targets).toBeNull();
        expect(row.arv).toBeNull();
        const block = res.underwrite;
        for (const k of ['arv', 'max_offer', 'brrrr_offer', 'dscr', 'economics_factor'] as const) expect(block[k]).toBeNull();
        expect(block.unscored_reason).not.toBeNull();
        expect('comp_arv' in res).toBe(false);
        expect(res.arv_source).toBe('tract heuristic');
        expect(res.read).not.toMatch(/offer \$|DSCR \d/);
      }),
      { numRuns: 300 },
    );
  });

  it('a point valuation that clears the legacy gates reads real comps and carries comp_arv; a range one does not', () => {
    // tier1(8) fixture: 8 comps, similarity 0.8 each, fsd 10%, calibration display point → point, legacy confidence 65.
    const { valuation: v } = pipeline(evidence());
    const res = buildUnderwriteResponse(v, { tract: null, risk: null, underwriting: null, scores: null });
    expect(res.arv_source).toBe('real comps (8 sales, conf 65)');
    expect(res.comp_arv).toMatchObject({ base: v.arv.value, conservative: v.arv.low, aggressive: v.arv.high });
    // Same comps under a `range` calibration display: the legacy gates pass but the ladder refuses a point.
    const { valuation: r } = pipeline(evidence({ tier1: tier1(8, { calibration: calibration('range') }) }));
    const resR = buildUnderwriteResponse(r, { tract: null, risk: null, underwriting: null, scores: null });
    expect(resR.arv_source).toBe('tract heuristic');
    expect('comp_arv' in resR).toBe(false);
  });
});
