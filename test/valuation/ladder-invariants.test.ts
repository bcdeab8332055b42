// The ladder's money rounding and its invariants over random evidence: INV-5, INV-8, range-only carries no
// point-derived field, and every produced valuation validates against the schema and the invariant list.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValuationSchema } from '../../src/contracts/valuation.js';
import { assertValuationInvariants } from '../../src/contracts/valuation-invariants.js';
import { pointArvUsd } from '../../src/valuation/artifact.js';
import { roundDisplayedUsd } from '../../src/valuation/decide/ladder.js';
import type { LadderEvidence } from '../../src/valuation/decide/ladder-evidence.js';
import { AREA, AS_IS, HEDONIC, calibration, evidence, pipeline, tier1 } from '../contracts/support/valuation-fixtures.js';

describe('roundDisplayedUsd', () => {
  it.each([
    [452_345, 'nearest', 452_000],
    [452_500, 'nearest', 453_000], // half rounds up
    [100_499, 'nearest', 100_000],
    [99_949, 'nearest', 99_900], // below $100k: $100 step
    [99_950, 'nearest', 100_000],
    [12_345, 'nearest', 12_300],
    [407_110.5, 'down', 407_000],
    [506_626.4, 'up', 507_000],
    [500_000, 'up', 500_000], // exact multiples stay
    [1.12 * 300_000, 'up', 336_000], // 336,000.00000000006: float noise is not a step (was 337,000)
    [0.7 * 330_000, 'down', 231_000], // 230,999.99999999997 (was 230,000)
    [336_000.01, 'up', 337_000], // a cent is money
    [-0, 'nearest', 0],
  ] as const)('%d (%s) → %d', (usd, mode, expected) => {
    expect(Object.is(roundDisplayedUsd(usd, mode), expected)).toBe(true);
  });

  it('refuses non-finite amounts', () => {
    expect(() => roundDisplayedUsd(Number.POSITIVE_INFINITY)).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });

  it('never narrows a band: round(low, down) ≤ round(value) ≤ round(high, up)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 5e6, noNaN: true }), { minLength: 3, maxLength: 3 }), (xs) => {
        const [lo, mid, hi] = [...xs].sort((a, b) => a - b);
        const r = [roundDisplayedUsd(lo, 'down'), roundDisplayedUsd(mid), roundDisplayedUsd(hi, 'up')];
        // Outward up to float noise: an amount within a millionth of a dollar of a step counts as on it.
        return r[0] <= r[1] && r[1] <= r[2] && r[0] <= lo + 1e-6 && r[2] >= hi - 1e-6;
      }),
    );
  });
});

const evidenceArb: fc.Arbitrary<LadderEvidence> = fc
  .record({
    county: fc.constantFrom('cook' as const, 'lake' as const),
    hardGate: fc.constantFrom(null, 'outsideMappedTracts', 'tractNotIngested', 'condoModelUnavailable'),
    n: fc.integer({ min: 0, max: 12 }),
    fsdPct: fc.double({ min: 0, max: 60, noNaN: true }),
    step: fc.constantFrom(1 as const, 2 as const, 3 as const),
    display: fc.constantFrom(null, 'point' as const, 'range' as const, 'suppress' as const),
    luxury: fc.boolean(),
    model: fc.option(fc.double({ min: 200_000, max: 700_000, noNaN: true })),
    hedonic: fc.option(fc.record({ displayEligible: fc.boolean(), locationResolved: fc.boolean() })),
    area: fc.boolean(),
  })
  .map((r) => {
    const subject = { county: r.county, outsideMappedTracts: r.hardGate === 'outsideMappedTracts', tractNotIngested: r.hardGate === 'tractNotIngested', condoModelUnavailable: r.hardGate === 'condoModelUnavailable' };
    const t1 = tier1(r.n, {
      method: r.county === 'cook' ? 'renovated_comps' : 'lake_gis_comps',
      fsdPct: r.fsdPct,
      ladderStep: r.step,
      luxuryThinComps: r.luxury,
      calibration: r.display === null ? null : calibration(r.display),
      modelValueUsd: r.model,
    });
    return evidence({ subject, tier1: t1, tier2: r.hedonic ? { ...HEDONIC, ...r.hedonic } : null, areaContext: r.area ? AREA : null });
  });

describe('ladder → artifact → displayed valuation, over random evidence', () => {
  it('every valuation validates against ValuationSchema and breaks no invariant', () => {
    fc.assert(
      fc.property(evidenceArb, (ev) => {
        const { valuation } = pipeline(ev);
        ValuationSchema.parse(valuation);
        expect(assertValuationInvariants(valuation)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('INV-5: a suppressed (tier 3) arv never carries a number', () => {
    fc.assert(
      fc.property(evidenceArb, (ev) => {
        const { valuation: v } = pipeline(ev);
        if (v.arv.method !== 'suppressed' && v.arv.method_tier !== 3) return true;
        return v.arv.value === null && v.arv.low === null && v.arv.high === null && v.arv.suppression_reason !== null && v.arv.method_tier === 3;
      }),
      { numRuns: 300 },
    );
  });

  it('not a point ⇒ no point-derived field: arv.value null, not actionable, unscored_reason set, no ARV for economics', () => {
    fc.assert(
      fc.property(evidenceArb, (ev) => {
        const { decision, valuation: v } = pipeline(ev);
        if (decision.outcome === 'point') return v.arv.value !== null && pointArvUsd(v) === v.arv.value;
        return v.arv.value === null && v.display?.point_actionable === false && v.display.unscored_reason !== null && pointArvUsd(v) === null && v.tax.target_basis !== 'arv';
      }),
      { numRuns: 300 },
    );
  });

  it('INV-8: the as-is value never moves arv, interval, confidence or outcome', () => {
    fc.assert(
      fc.property(evidenceArb, fc.double({ min: 1_000, max: 5e6, noNaN: true }), (ev, asIsUsd) => {
        const base = pipeline(ev, { asIs: null }).valuation;
        const other = pipeline(ev, { asIs: { ...AS_IS, value: asIsUsd, low: asIsUsd * 0.9, high: asIsUsd * 1.1 } }).valuation;
        expect(other.arv).toEqual(base.arv);
        expect(other.display).toEqual(base.display);
        expect(other.area_context).toEqual(base.area_context);
      }),
      { numRuns: 150 },
    );
  });
});
