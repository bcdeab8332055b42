// The calibration report's Tier-2 and rent lines beside Tier 1 on the generated test corpus: hedonic_v1 fit before the
// Tier-1 split day and scored on the test window, rent against the generator's true rents, per segment and overall.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { calibrate, reportMarkdown, type CalibrationReport } from '../../src/valuation/calibration/job.js';
import { smallCorpusDir } from '../support/corpus.js';

let store: Store;
let report: CalibrationReport;

beforeAll(async () => {
  const dataDir = await smallCorpusDir();
  store = openStore(dataDir);
  ({ report } = await calibrate(store, { dataDir, resultsDir: null, besideTier1: true, now: () => new Date('2026-11-02T12:00:00Z') }));
}, 300_000);

afterAll(async () => {
  await store?.close();
});

describe('calibration report beside Tier 1', () => {
  it('Tier 2 is fit before the Tier-1 split day and scored up to the holdout end, per segment and overall', () => {
    const t2 = report.besideTier1!.tier2;
    if (!t2.ok) throw new Error(t2.note);
    expect(t2.result.cutoff).toBe(report.holdout.split);
    // horizon = endDay − splitDay; holdout.end is the last holdout day (endDay − 1)
    expect(t2.result.horizon_days).toBe((Date.parse(report.holdout.end) - Date.parse(report.holdout.split)) / 86_400_000 + 1);
    expect(t2.result.segments.length).toBeGreaterThan(0);
    const n = t2.result.segments.reduce((s, r) => s + r.n_test, 0);
    expect(t2.result.overall.n_test).toBe(n);
    for (const r of t2.result.segments.filter((x) => x.n_test > 0)) expect(r.mdape! >= 0 && r.ppe10! >= 0 && r.ppe10! <= 1).toBe(true);
  });

  it('rent errors come from the true rents, overall, per property type and per segment', () => {
    const rent = report.besideTier1!.rent;
    if (!rent.ok) throw new Error(rent.note);
    const all = rent.result.groups.find((g) => g.group === 'all')!;
    expect(all.n).toBeGreaterThan(0);
    expect(rent.result.segments.reduce((s, g) => s + g.n, 0)).toBe(all.n);
    for (const g of rent.result.segments) expect(g.group).toMatch(/^(sfh|mf2_4|condo)_(city|suburb)$|^unknown$/);
  });

  it('oracle MdAPE is read from the truth file; oracle coverage exactly where a segment has a band, pooled overall', () => {
    // Every sale of the generated corpus is in its truth file, so a segment has an oracle band exactly when it has a
    // table row (both need calibration_min_n = 30 valued calibration sales). With the 24-month holdout the test-scale
    // corpus has at least one such segment; the overall figure pools the segments' bands weighted by their test sales.
    const segs = report.rows.filter((x) => x.group !== 'overall');
    for (const r of segs) {
      if (r.n > 0) expect(r.oracleMdape).not.toBeNull();
      expect(r.oracleCoverage80 === null).toBe(r.q80Lo === null);
    }
    const banded = segs.filter((r) => r.oracleCoverage80 !== null);
    expect(banded.length).toBeGreaterThan(0);
    for (const r of banded) {
      expect(r.oracleCoverage80!).toBeGreaterThanOrEqual(0);
      expect(r.oracleCoverage80!).toBeLessThanOrEqual(1);
    }
    const n = banded.reduce((acc, r) => acc + r.oracleN, 0);
    const pooled = banded.reduce((acc, r) => acc + r.oracleCoverage80! * r.oracleN, 0) / n;
    expect(report.rows.find((r) => r.group === 'overall')!.oracleCoverage80).toBeCloseTo(pooled, 12);
  });

  it('the markdown report prints both tables beside the Tier-1 rows', () => {
    const md = reportMarkdown(report);
    expect(md).toMatch(/Tier 2 \(hedonic_v1-[^)]*\) beside Tier 1/);
    expect(md).toMatch(/\| overall \| \d+ \| [\d.]+% \|/);
    expect(md).toContain('| oracle cov80 |');
    expect(md).toContain("Rent (as-is contract rent vs the generator's true rent");
  });

  it('without the option (the serving tests and the CLI without --report) the side backtests do not run', async () => {
    const dataDir = await smallCorpusDir();
    const { report: plain } = await calibrate(store, { dataDir, resultsDir: null });
    expect(plain.besideTier1).toBeNull();
    // Nor is the ground truth read (first start's calibration stores this report for GET /model): no oracle figures.
    expect(plain.rows.every((r) => r.oracleN === 0 && r.oracleMdape === null && r.oracleCoverage80 === null)).toBe(true);
  });
});
