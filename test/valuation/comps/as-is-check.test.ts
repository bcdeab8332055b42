// as_is_exceeds_arv: an as-is value above the served ARV (the point, or the range's high when range-only) is flagged,
// never corrected: neither number changes (INV-8, as-is is never blended into arv).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALUATION_WARNINGS, type Valuation } from '../../../src/contracts/valuation.js';
import { AS_IS_EXCEEDS_ARV_WARNING, asIsVsArvWarnings } from '../../../src/valuation/comps/as-is-check.js';
import { valueProperty } from '../../../src/valuation/value.js';
import { openPointEverywhere, type ScoringCorpus } from '../../support/scoring-corpus.js';

const asIs = (value: number) => ({ value, low: value * 0.9, high: value * 1.1, n_comps: 5, as_is_basis: 'primary' as const });

describe('asIsVsArvWarnings(asIs, arv)', () => {
  it('flags an as-is above the served point (displayed, rounded numbers), not one equal to it', () => {
    const point = { value: 300_000, high: 330_000, range_only: false };
    expect(asIsVsArvWarnings(asIs(300_600), point)).toEqual([AS_IS_EXCEEDS_ARV_WARNING]); // displays as $301,000
    expect(asIsVsArvWarnings(asIs(300_400), point)).toEqual([]); // displays as $300,000: not above
    expect(asIsVsArvWarnings(asIs(250_000), point)).toEqual([]);
  });

  it('compares a range-only ARV by its high; no served ARV (suppressed, area context) or no as-is means no flag', () => {
    const range = { value: null, high: 330_000, range_only: true };
    expect(asIsVsArvWarnings(asIs(320_000), range)).toEqual([]);
    expect(asIsVsArvWarnings(asIs(340_000), range)).toEqual([AS_IS_EXCEEDS_ARV_WARNING]);
    expect(asIsVsArvWarnings(asIs(340_000), { value: null, high: null, range_only: null })).toEqual([]);
    expect(asIsVsArvWarnings(null, range)).toEqual([]);
  });

  it('is a published valuation warning', () => {
    expect(VALUATION_WARNINGS).toContain(AS_IS_EXCEEDS_ARV_WARNING);
  });
});

describe('valueProperty: as_is_exceeds_arv on served valuations', () => {
  let fx: ScoringCorpus;
  const vals: Valuation[] = [];
  beforeAll(async () => {
    fx = await openPointEverywhere();
    const p = fx.ctx.subjects.parcels!;
    for (let i = 0; i < p.length; i += 7) vals.push(valueProperty({ parcelRow: i }, fx.ctx));
  }, 300_000);
  afterAll(async () => {
    await fx?.store.close();
  });

  it('carries the warning exactly when the displayed as-is exceeds the served ARV, and leaves both values alone', () => {
    let flagged = 0;
    for (const v of vals) {
      const a = v.value_as_is?.value ?? null;
      const served = v.arv.range_only ? v.arv.high : v.arv.value;
      const exceeds = a !== null && served !== null && a > served;
      expect(v.warnings.includes(AS_IS_EXCEEDS_ARV_WARNING)).toBe(exceeds);
      if (exceeds) {
        flagged++;
        expect(served).toBeLessThan(a as number); // flagged, not corrected: the ARV was not raised to the as-is
      }
    }
    expect(flagged).toBeGreaterThan(0);
  });
});
