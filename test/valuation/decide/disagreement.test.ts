import { describe, expect, it } from 'vitest';
import { assessDisagreement } from '../../../src/valuation/decide/disagreement.js';
import { decideValuationDisplay } from '../../../src/valuation/decide/ladder.js';
import type { LadderEvidence } from '../../../src/valuation/decide/ladder-evidence.js';

const CAL = { q80Lo: 0.9, q80Hi: 1.1 };

describe('assessDisagreement', () => {
  it('leaves the band alone within 0.12 of the mean', () => {
    // comp 300k, model 335k: gap 35k / mean 317.5k = 0.110236 ≤ 0.12
    const d = assessDisagreement({ compValueUsd: 300_000, modelValueUsd: 335_000, lowUsd: 270_000, highUsd: 330_000, calibration: CAL });
    expect(d.gapFrac).toBeCloseTo(0.110236, 6);
    expect(d).toMatchObject({ widenedBy: null, low: 270_000, high: 330_000, warnings: [] });
  });

  it('stretches the band over the model band and raises approaches_disagree beyond 0.12', () => {
    // comp 300k, model 350k: gap 50k / mean 325k = 0.153846 > 0.12; model band 0.9 × 350k = 315k, 1.1 × 350k = 385k
    // low = min(270k, 315k) = 270k; high = max(330k, 385k) = 385k
    const d = assessDisagreement({ compValueUsd: 300_000, modelValueUsd: 350_000, lowUsd: 270_000, highUsd: 330_000, calibration: CAL });
    expect(d.widenedBy).toBeCloseTo(0.153846, 6);
    expect(d.low).toBe(270_000);
    expect(d.high).toBeCloseTo(385_000, 6);
    expect(d.warnings).toEqual(['approaches_disagree']);
  });

  it('uses the model value itself when uncalibrated', () => {
    const d = assessDisagreement({ compValueUsd: 300_000, modelValueUsd: 200_000, lowUsd: 280_000, highUsd: 320_000, calibration: null });
    // gap 100k / 250k = 0.4; low = min(280k, 200k)
    expect(d).toMatchObject({ widenedBy: 0.4, low: 200_000, high: 320_000 });
  });

  it('agrees with the ladder on the served Tier-1 band', () => {
    const ev: LadderEvidence = {
      subject: { county: 'cook', outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false },
      tier1: {
        method: 'renovated_comps', nComps: 8, valueUsd: 300_000, fsdPct: 10, ladderStep: 1, compRangeUsd: { low: 280_000, high: 320_000 },
        luxuryThinComps: false, calibration: { segment: 'sfh_city', version: 'v1', ...CAL, confidenceP10: 60, display: 'point' }, modelValueUsd: 350_000,
      },
      tier2: null, areaContext: null,
    };
    const dec = decideValuationDisplay(ev);
    const d = assessDisagreement({ compValueUsd: 300_000, modelValueUsd: 350_000, lowUsd: 0.9 * 300_000, highUsd: 1.1 * 300_000, calibration: CAL });
    expect(dec.artifactArv!.low).toBeCloseTo(d.low, 6);
    expect(dec.artifactArv!.high).toBeCloseTo(d.high, 6);
    expect(dec.artifactArv!.interval!.widened_by_model_disagreement).toBeCloseTo(d.widenedBy!, 12);
    expect(dec.warnings).toEqual(d.warnings);
  });
});
