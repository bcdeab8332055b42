// riskReportFor (the risk_report tool) on the test-scale corpus: values the subject, gathers evidence from the corpus
// and answers the contract shape; bad input is validation_failed.
import { describe, expect, it } from 'vitest';
import { RiskReportOutputSchema } from '../../src/contracts/tools.js';
import { RISK_FLAGS, riskReportFor } from '../../src/risk/index.js';
import { useScoringCorpus } from '../support/scoring-corpus.js';

const fx = useScoringCorpus();

describe('riskReportFor', () => {
  it('reports nine reasoned flags for a listed property, with distress evidence counted from the corpus', () => {
    const l = fx.store.getListings()[0];
    const r = riskReportFor(fx.ctx, { lat: l.lat, lon: l.lon, listing_units: 4, year_built: 1910 });
    expect(RiskReportOutputSchema.safeParse(r).success).toBe(true);
    expect(r.flags.map((f) => f.flag)).toEqual([...RISK_FLAGS]);
    expect(r.flags.every((f) => f.reason.length > 0)).toBe(true);
    expect(r.flags.find((f) => f.flag === 'vintage_stock')).toMatchObject({ flagged: true, severity: 1 });
    expect(r.flags.find((f) => f.flag === 'distress_proximity')?.reason).toMatch(/sales within 0.5 mi/);
    expect(r.disclosure).toMatch(/not an appraisal/);
  });

  it('rejects a request with neither an address nor lat/lon, or with unknown keys', () => {
    expect(() => riskReportFor(fx.ctx, { year_built: 1950 })).toThrow(/address or both lat and lon/);
    expect(() => riskReportFor(fx.ctx, { lat: 41.9, lon: -87.7, crime_rate: 3 })).toThrow(/risk_report/);
  });
});
