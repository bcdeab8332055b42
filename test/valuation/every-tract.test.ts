// One subject in EVERY tract of the generated test corpus (a parcel of the tract, else the tract's bbox centre), valued
// in-process through valueProperty with calibration and hedonic model in place: no valuation throws, every response
// validates against ValuationSchema with no invariant violation, each non-Tier-1 answer names its reason, and rent,
// rehab, tax and the income cross-check carry their method / confidence / range as the spec says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertValuationInvariants } from '../../src/contracts/valuation-invariants.js';
import { ValuationSchema, type Valuation } from '../../src/contracts/valuation.js';
import { INCOME, RENT } from '../../src/registry/groups/rent.js';
import { PTYPE_CODE } from '../../src/store/columns.js';
import { openStore, type Store } from '../../src/store/store.js';
import { calibrate } from '../../src/valuation/calibration/job.js';
import { runFitHedonic } from '../../src/valuation/hedonic/job.js';
import { buildValuationContext, type ValuationContext } from '../../src/valuation/value-context.js';
import { valueProperty, type ValueInput } from '../../src/valuation/value.js';
import { smallCorpusDir } from '../support/corpus.js';

let store: Store;
let ctx: ValuationContext;
const now = () => new Date('2026-11-02T12:00:00Z');
type Outcome = { geoid: string; input: ValueInput; v: Valuation | null; error: string | null };
const results: Outcome[] = [];

/** One subject per tract: its first non-condo parcel (else any parcel), else the bbox centre as an sfh. */
function subjectsByTract(c: ValuationContext): Array<{ geoid: string; input: ValueInput }> {
  const p = c.subjects.parcels!;
  const firstRow = new Map<string, number>();
  for (let i = 0; i < p.length; i++) {
    const geoid = c.sales.tracts[p.tractIdx[i]];
    if (geoid === undefined) continue;
    const seen = firstRow.get(geoid);
    if (seen === undefined || (p.ptype[seen] === PTYPE_CODE.condo && p.ptype[i] !== PTYPE_CODE.condo)) firstRow.set(geoid, i);
  }
  return c.subjects.tracts.map((t) => {
    const row = firstRow.get(t.geoid);
    const input: ValueInput = row !== undefined ? { parcelRow: row } : { lat: (t.bbox[1] + t.bbox[3]) / 2, lon: (t.bbox[0] + t.bbox[2]) / 2, propType: 'sfh' };
    return { geoid: t.geoid, input };
  });
}

beforeAll(async () => {
  const dataDir = await smallCorpusDir();
  await runFitHedonic({ dataDir });
  store = openStore(dataDir);
  await calibrate(store, { dataDir, resultsDir: null, now });
  ctx = buildValuationContext(store, { now });
  for (const { geoid, input } of subjectsByTract(ctx)) {
    try {
      results.push({ geoid, input, v: valueProperty(input, ctx), error: null });
    } catch (e) {
      results.push({ geoid, input, v: null, error: `${geoid}: ${(e as Error).message}` });
    }
  }
}, 600_000);

afterAll(async () => {
  await store?.close();
});

const valued = (): Valuation[] => results.map((r) => r.v).filter((v): v is Valuation => v !== null);

describe('a valuation in every tract of the test corpus', () => {
  it('values one subject per tract without an error', () => {
    expect(ctx.subjects.tracts.length).toBe(1662); // test scale: the generator's 1,662 tracts (support/corpus.ts)
    expect(results.length).toBe(ctx.subjects.tracts.length);
    expect(results.filter((r) => r.error !== null).map((r) => r.error)).toEqual([]);
  });

  it('every response validates against ValuationSchema and breaks no contract invariant', () => {
    const bad = valued().flatMap((v) => {
      const parsed = ValuationSchema.safeParse(v);
      const issues = parsed.success ? [] : parsed.error.issues.slice(0, 2).map((i) => `${i.path.join('.')}: ${i.message}`);
      return [...issues, ...assertValuationInvariants(v).map((x) => `${x.rule} ${x.path}`)].map((m) => `${v.subject.tract_geoid}: ${m}`);
    });
    expect(bad).toEqual([]);
  });

  it('each answer without a Tier-1 value names why (suppression_reason and arv_null_reason)', () => {
    const outcomes = new Map<string, number>();
    for (const v of valued()) {
      const outcome = v.display!.outcome;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      if (outcome === 'suppressed') expect(v.arv.suppression_reason, v.subject.tract_geoid ?? '').toEqual(expect.any(String));
      if (outcome === 'suppressed' || outcome === 'area_context' || outcome === 'tier2_range') {
        expect(v.artifact!.arv, v.subject.tract_geoid ?? '').toBeNull();
        expect(v.artifact!.arv_null_reason, v.subject.tract_geoid ?? '').toEqual(expect.any(String));
      } else expect(v.artifact!.arv_null_reason).toBeNull();
    }
    // the corpus exercises more than one rung of the ladder (not every tract suppressed, not every one a point)
    expect(outcomes.size).toBeGreaterThan(1);
  });

  it('a subject left without a Tier-1 or Tier-2 answer says why Tier 2 did not serve; Lake subjects get Tier 2 from Lake segments', () => {
    let lakeTier2 = 0;
    for (const v of valued()) {
      const outcome = v.display!.outcome;
      const why = v.warnings.filter((w) => w === 'tier2_unavailable' || w === 'tier2_segment_not_calibrated');
      if (v.arv.suppression_reason === 'condo_model_unavailable' || v.arv.suppression_reason === 'tract_not_ingested' || v.arv.suppression_reason === 'outside_mapped_tracts') continue;
      if (outcome === 'suppressed' || outcome === 'area_context') expect(why, v.subject.tract_geoid ?? '').toHaveLength(1);
      else expect(why).toEqual([]);
      if (outcome === 'tier2_range' && v.subject.county === 'lake') {
        lakeTier2++;
        expect(v.arv.model?.segment).toMatch(/_lake$/);
      }
    }
    expect(lakeTier2).toBeGreaterThan(0);
  });

  it('rent, rehab and tax carry their method, confidence and range; the four rent fields are separate', () => {
    const [lo, hi] = RENT.v.interval_pct_range;
    for (const v of valued()) {
      const { rent, rehab, tax } = v;
      expect(rent.method).toMatch(/^(safmr_anchored|mls_blended|not_estimated)$/);
      for (const e of [rent.as_is_contract, rent.stabilized_post_reno]) {
        if (!e) continue;
        expect(e.value).toEqual(expect.any(Number));
        expect(e.low! <= e.value! && e.value! <= e.high!).toBe(true);
        expect(e.confidence).toEqual(expect.any(Number));
        expect(e.interval_pct! >= lo && e.interval_pct! <= hi).toBe(true);
      }
      if (rent.as_is_contract) {
        expect(rent.market).toBe(rent.as_is_contract.value); // legacy alias, not a blend
        expect(rent.reno).toBe(rent.stabilized_post_reno!.value);
        expect(rent.context).toBeTypeOf('object');
        expect(rent.rent_confidence).toMatch(/^(low|medium)$/);
      }
      // Rehab has no method field in the spec: scope, its source, psf_base, multipliers and the registry version.
      expect(rehab.scope_source).toEqual(expect.any(String));
      expect(rehab.registry_version).toEqual(expect.any(String));
      expect(tax.method).toMatch(/^(cook_equalized|lake_median_rate|[a-z_]+)$/);
      expect(tax.county).toBe(v.subject.county);
      if (tax.target_basis === 'arv') expect(v.display!.point_actionable).toBe(true);
    }
    const methods = new Set(valued().map((v) => v.tax.method));
    expect(methods.has('cook_equalized')).toBe(true);
    expect(valued().some((v) => v.rent.method === 'safmr_anchored')).toBe(true);
  });

  // The test corpus calibrates no segment to `point` (too few test sales), so here every NOI must be null;
  // income-hook.test.ts covers point valuations with a point-display calibration table.
  it('noi_implied_value appears only on point-actionable valuations and never replaces the ARV', () => {
    for (const v of valued()) {
      if (!v.display!.point_actionable) expect(v.noi_implied_value ?? null).toBeNull();
      if (v.noi_implied_value != null) {
        expect(v.arv.method).toMatch(/^(renovated_comps|lake_gis_comps)$/); // the ARV is still the comps'
        const diverges = Math.abs(v.noi_implied_value - v.arv.value!) / v.arv.value! > INCOME.v.divergence_warn_frac;
        expect(v.warnings.includes('income_approach_diverges')).toBe(diverges);
      }
    }
    expect(valued().filter((v) => v.noi_implied_value != null).every((v) => v.display!.point_actionable)).toBe(true);
  });
});
