// underwriteBundleOf + underwriteResponseOf on the test-scale corpus (no calibration table there, so no valuation is
// a point): the /api/underwrite body carries tract, arv_source, risk, underwrite (nulls with unscored_reason) and read.
import { describe, expect, it } from 'vitest';
import { ValuationSchema } from '../../../src/contracts/valuation.js';
import { propertyResponseOf, underwriteBundleOf, underwriteResponseOf } from '../../../src/workers/answers/bundle.js';
import { pointArvUsd } from '../../../src/valuation/artifact.js';
import { useScoringCorpus } from '../../support/scoring-corpus.js';

const fx = useScoringCorpus();

describe('underwriteResponseOf', () => {
  it('wraps the valuation with tract context, risk, a locked underwrite block and a one-sentence read', () => {
    const l = fx.store.getListings().find((x) => x.units !== null) ?? fx.store.getListings()[0];
    const b = underwriteBundleOf(fx.ctx, { input: { lat: l.lat, lon: l.lon, price: l.price_usd, units: l.units ?? 2 }, strategy: 'brrrr' });
    const res = underwriteResponseOf(fx.store, b);
    expect(ValuationSchema.safeParse(res).success).toBe(true);
    expect(pointArvUsd(b.valuation)).toBeNull(); // no calibration table in the test corpus
    expect(res.tract).toMatchObject({ geoid: b.valuation.subject.tract_geoid });
    expect(res.arv_source).toBe('tract heuristic');
    expect('comp_arv' in res).toBe(false);
    expect(res.risk?.flags).toHaveLength(9);
    expect(res.underwrite).toMatchObject({ arv: null, max_offer: null, brrrr_offer: null, dscr: null, economics_factor: null });
    expect(res.underwrite.unscored_reason).not.toBeNull();
    expect(res.underwrite.assumptions?.strategy).toBe('brrrr');
    expect(res.read).toMatch(/\.$/);
    expect(res.read.split('. ').length).toBe(1);
  });

  it('puts the valuation under investor.* for /api/property', () => {
    const l = fx.store.getListings()[0];
    const b = underwriteBundleOf(fx.ctx, { input: { lat: l.lat, lon: l.lon, units: 1 } });
    const p = propertyResponseOf(fx.store, b);
    expect(p.investor.valuation).toBe(b.valuation);
    expect(p.property).toEqual(b.valuation.subject);
    expect(p.disclosure).toBe(b.valuation.disclosure);
  });
});
