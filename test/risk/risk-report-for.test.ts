// The risk_report tool's worker answer (answerOf 'risk_report') on the test-scale corpus: values the subject through the
// served path, gathers evidence from the corpus and answers the contract shape; a subject whose unit count is unknown
// still gets its report, with the flags that need a valuation saying there is no evidence; bad input is refused by the
// contract's strict schema.
import { describe, expect, it } from 'vitest';
import { RiskReportInputSchema } from '../../src/contracts/inputs.js';
import { RiskReportOutputSchema, type RiskReportOutput } from '../../src/contracts/tools.js';
import { RISK_FLAGS } from '../../src/risk/index.js';
import { answerOf } from '../../src/workers/answers/index.js';
import { TEST_CHAIN, useScoringCorpus } from '../support/scoring-corpus.js';

const fx = useScoringCorpus();
const risk = async (raw: unknown): Promise<RiskReportOutput> =>
  RiskReportOutputSchema.parse(await answerOf('risk_report', RiskReportInputSchema.parse(raw), { store: fx.store, ctx: fx.ctx, chain: TEST_CHAIN, listingsRun: null }));

describe('risk_report answer', () => {
  it('reports nine reasoned flags for a listed property, with distress evidence counted from the corpus', async () => {
    const l = fx.store.getListings()[0];
    const r = await risk({ lat: l.lat, lon: l.lon, listing_units: 4, year_built: 1910 });
    expect(r.flags.map((f) => f.flag)).toEqual([...RISK_FLAGS]);
    expect(r.flags.every((f) => f.reason.length > 0)).toBe(true);
    expect(r.flags.find((f) => f.flag === 'vintage_stock')).toMatchObject({ flagged: true, severity: 1 });
    expect(r.flags.find((f) => f.flag === 'distress_proximity')?.reason).toMatch(/sales within 0.5 mi/);
    expect(r.disclosure).toMatch(/not an appraisal/);
    expect(r.valuation_refusal).toBeNull();
  });

  it('without a unit count anywhere it still reports: units-dependent flags say no evidence', async () => {
    // ~150 m off a listing: no listing or parcel record there, and no units given
    const l = fx.store.getListings()[0];
    const r = await risk({ lat: l.lat + 0.0014, lon: l.lon });
    expect(r.valuation_refusal).toMatchObject({ code: 'units_required' });
    expect(r.subject.units).toBeNull();
    for (const code of ['appraisal_ceiling', 'rent_model_uncertainty', 'legal_unit_mismatch']) {
      expect(r.flags.find((f) => f.flag === code)).toMatchObject({ flagged: false, evidence: 'no_evidence' });
    }
    expect(r.flags.find((f) => f.flag === 'distress_proximity')?.reason).toMatch(/sales within 0.5 mi/);
  });

  it('never names a purchase price when none was given', async () => {
    const l = fx.store.getListings()[0];
    const r = await risk({ lat: l.lat + 0.0014, lon: l.lon });
    expect(r.flags.map((f) => f.reason).join(' ')).not.toMatch(/purchase price/);
  });

  it('the contract refuses a request with neither an address nor lat/lon, or with unknown keys', () => {
    expect(RiskReportInputSchema.safeParse({ year_built: 1950 }).success).toBe(false);
    expect(RiskReportInputSchema.safeParse({ lat: 41.9, lon: -87.7, crime_rate: 3 }).success).toBe(false);
  });
});
