// What the calibration job stores for GET /model (withoutTruth): the generator's ground truth never reaches serving, so
// a report run's oracle figures, oracle baselines, condition classifier and truth-picked all-sales kinds are dropped.
import { describe, expect, it } from 'vitest';
import { withoutTruth, type CalibrationReport, type ReportRow } from '../../../src/valuation/calibration/job.js';
import type { BaselineRow } from '../../../src/valuation/calibration/baselines.js';
import { renderReportHtml } from '../../../src/valuation/calibration/html/report-html.js';

const row: ReportRow = {
  group: 'sfh_city', n: 40, mdape: 0.08, ppe10: 0.6, coverage80: 0.8, meanWidth80: 0.3, cod: 9, prd: 1.01, prb: -0.01, suppressionRate: 0.05,
  display: 'point', q80Lo: 0.85, q80Hi: 1.16, oracleMdape: 0.05, oracleN: 38, oracleCoverage80: 0.79,
};
const base = (name: BaselineRow['name']): BaselineRow => ({ name, kind: 'overall', group: 'all', n: 40, refused: 0, mdape: 0.1, cod: 12, ppe10: 0.5, ppe20: 0.8 });
const report = (kindSource: 'truth' | 'snapshot_condition'): CalibrationReport => ({
  version: 'cal-x', snapshotId: 's-1', holdout: { start: '2025-01-01', split: '2025-07-01', end: '2025-12-31', sales: 80, calibrationSales: 40, testSales: 40 },
  rows: [row], classes: [], gates: { passed: false, checks: [] }, promoted: false, elapsedMs: 1, besideTier1: null,
  allSales: { kindSource, window: { start: null, split: '2025-07-01', end: '2025-12-31' }, rows: [], vsNaive: [], naiveElapsedMs: 1 },
  baselines: [base('naive'), base('oracle')],
  conditionClassifier: { n: 10, arvStratum: { precision: 0.6, recall: 0.8, f1: 0.69, truePositives: 4, predicted: 7, actual: 5 }, confusion: {} as never, bySource: {} },
});

describe('withoutTruth', () => {
  it('drops the oracle figures, the oracle baseline and the condition classifier', () => {
    const r = withoutTruth(report('snapshot_condition'));
    expect(r.rows[0]).toMatchObject({ oracleMdape: null, oracleN: 0, oracleCoverage80: null, mdape: 0.08 });
    expect(r.baselines?.map((b) => b.name)).toEqual(['naive']);
    expect(r.conditionClassifier).toBeNull();
    expect(r.allSales?.kindSource).toBe('snapshot_condition');
  });

  it('drops an all-sales section whose kinds the true condition picked, with its baselines', () => {
    const r = withoutTruth(report('truth'));
    expect(r.allSales).toBeNull();
    expect(r.baselines).toEqual([]);
    expect(JSON.stringify(r)).not.toMatch(/"oracle"|0\.79|"truth"/);
  });

  it('says so on the page: a withheld all-sales section is not "not computed"', () => {
    const html = renderReportHtml(withoutTruth(report('truth')));
    expect(html).not.toContain('were not computed');
    expect(html).not.toContain('was not computed');
    expect(html.match(/not served here/g)).toHaveLength(2); // suppression and baselines sections
  });
});
