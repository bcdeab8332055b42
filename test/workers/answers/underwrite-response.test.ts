// answerOf (the worker side of the valuation operations) on the test-scale corpus, in process (no calibration table
// there, so no valuation is a point): the /api/underwrite body carries tract, arv_source, risk, underwrite (nulls with
// unscored_reason) and read, and validates against the operation's output schema; /api/property puts the same
// valuation under investor.*.
import { describe, expect, it } from 'vitest';
import { operationById } from '../../../src/contracts/operations.js';
import { UnderwriteQuerySchema } from '../../../src/contracts/inputs.js';
import type { PropertyOutput, UnderwriteRestBody } from '../../../src/contracts/tools.js';
import { answerOf, type AnswerEnv } from '../../../src/workers/answers/index.js';
import { TEST_CHAIN, useScoringCorpus } from '../../support/scoring-corpus.js';

const fx = useScoringCorpus();
const env = (): AnswerEnv => ({ store: fx.store, ctx: fx.ctx, chain: TEST_CHAIN, listingsRun: null });

describe('answerOf underwrite_rest and property', () => {
  it('wraps the valuation with tract context, risk, a locked underwrite block and a one-sentence read', async () => {
    const l = fx.store.getListings().find((x) => x.units !== null) ?? fx.store.getListings()[0];
    const input = UnderwriteQuerySchema.parse({ lat: l.lat, lon: l.lon, price: l.price_usd, units: l.units ?? 2 });
    const text = (await answerOf('underwrite_rest', input, env())) as string;
    const res = operationById('underwrite_rest')!.output.parse(JSON.parse(text)) as UnderwriteRestBody;
    expect(res.display?.point_actionable).toBe(false); // no calibration table in the test corpus
    expect(res.tract).toMatchObject({ geoid: res.subject.tract_geoid });
    expect(res.arv_source).toBe('tract heuristic');
    expect('comp_arv' in res).toBe(false);
    expect(res.risk?.flags).toHaveLength(9);
    expect(res.underwrite).toMatchObject({ arv: null, max_offer: null, brrrr_offer: null, dscr: null, economics_factor: null, hold: null, strategy_scores: null, missing_inputs: [] });
    expect(res.underwrite.unscored_reason).not.toBeNull();
    expect(res.underwrite.assumptions?.strategy).toBe('brrrr');
    expect(res.read).toMatch(/\.$/);
    expect(res.read.split('. ').length).toBe(1);
  });

  it('puts the same valuation under investor.* for /api/property', async () => {
    const l = fx.store.getListings()[0];
    const p = operationById('property')!.output.parse(await answerOf('property', { lat: l.lat, lon: l.lon, units: 1 }, env())) as PropertyOutput;
    const v = p.investor.valuation!;
    expect(p.property).toEqual(v.subject);
    expect(p.disclosure).toBe(v.disclosure);
    const again = JSON.parse((await answerOf('underwrite_rest', UnderwriteQuerySchema.parse({ lat: l.lat, lon: l.lon, price: 1, units: 1 }), env())) as string) as UnderwriteRestBody;
    expect({ ...again.arv, comps: undefined }).toEqual({ ...v.arv, comps: undefined });
  });
});
