// The calibration report page on a constructed report: every section present, sections without data say so, text
// escaped (a segment named <script> comes out inert), every SVG and the document well-formed, nothing fetched.
import { describe, expect, it } from 'vitest';
import type { CalibrationReport, ReportRow } from '../../../src/valuation/calibration/job.js';
import { renderReportHtml } from '../../../src/valuation/calibration/html/report-html.js';
import type { AccuracyRow } from '../../../src/valuation/calibration/accuracy.js';
import type { BaselineRow } from '../../../src/valuation/calibration/baselines.js';
import { reportFigures } from '../../../src/valuation/calibration/report-figures.js';
import { markupProblems } from '../../support/markup.js';
import { fixtureTable, fixtureTest, rec } from './report-fixture.js';

const EVIL = '<script>alert("x")</script>';
const metrics = { n: 40, mdape: 0.081, ppe10: 0.62, coverage80: 0.79, meanWidth80: 0.31, cod: 9.5, prd: 1.01, prb: -0.01, suppressionRate: 0.05 };
const row = (group: string, extra: Partial<ReportRow> = {}): ReportRow => ({ group, ...metrics, display: 'point', q80Lo: 0.85, q80Hi: 1.16, oracleMdape: 0.068, oracleN: 38, oracleCoverage80: 0.8, ...extra });

function fullReport(): CalibrationReport {
  const test = [...fixtureTest(), rec(EVIL, 1.02, 1)];
  return {
    version: 'cal-2.1.0-abc123', snapshotId: 'snap-20261121-01',
    holdout: { start: '2024-07-01', split: '2025-07-14', end: '2026-06-30', sales: 1200, calibrationSales: 600, testSales: 600 },
    rows: [row('sfh_city'), row(EVIL, { coverage80: 0.7 }), row('overall', { display: null })],
    classes: [{ group: 'sfh_city/step1', ...metrics, interval: 'class', nCalibration: 30, q80Lo: 0.8, q80Hi: 1.25 }, { group: `${EVIL}/step2`, ...metrics, interval: 'segment_fallback', nCalibration: 40, q80Lo: 0.9, q80Hi: 1.1 }],
    gates: { passed: false, checks: [{ gate: 'coverage80', value: 0.79, target: '0.78-0.82', passed: true }, { gate: 'n', value: 600, target: '>= 30', passed: true }, { gate: 'cod', value: 16.2, target: '<= 10', passed: false }] },
    promoted: false, elapsedMs: 12_345,
    besideTier1: {
      tier2: { ok: true, result: { model_version: 'hedonic_v1-x', cutoff: '2025-07-14', horizon_days: 352, segments: [{ segment: 'sfh_city', n_test: 300, n_unresolved: 2, mdape: 0.12, ppe10: 0.45, coverage80: 0.81, mean_width: 0.4, display_eligible: true }], overall: { n_test: 300, n_unresolved: 2, mdape: 0.12, ppe10: 0.45, coverage80: 0.81, mean_width: 0.4 } } },
      rent: { ok: false, note: 'rent backtest not run: validation_failed: no ground truth' },
    },
    figures: reportFigures(fixtureTable(), test),
  };
}

const acc = (kind: AccuracyRow['kind'], group: string, mdape: number): AccuracyRow => ({
  kind, group, n: 50, valued: 45, refused: 5, mdape, ppe10: 0.6, ppe20: 0.85, cod: 9.1, prd: 1.01, prb: -0.01,
  nCoverage: 20, coverage80: 0.8, meanWidth80: 0.3, nOutcome: 25, pointShare: 0.8, rangeShare: 0.1, suppressedShare: 0.1,
});
const base = (name: BaselineRow['name'], kind: BaselineRow['kind'], group: string, mdape: number): BaselineRow => ({ name, kind, group, n: 40, refused: 10, mdape, cod: 15.7, ppe10: 0.44, ppe20: 0.7 });
const allSales = {
  allSales: {
    kindSource: 'truth' as const, window: { start: '2024-07-01', split: '2025-07-14', end: '2026-06-30' }, naiveElapsedMs: 12,
    rows: [acc('arv', 'sfh_city', 0.081), acc('arv', EVIL, 0.09), acc('as_is', 'all', 0.14), acc('overall', 'all', 0.105)],
    vsNaive: [{ kind: 'overall' as const, n: 44, modelMdape: 0.104, naiveMdape: 0.121 }],
  },
  baselines: [base('naive', 'arv', 'sfh_city', 0.113), base('naive', 'overall', 'all', 0.117), base('oracle', 'arv', 'sfh_city', 0.066)],
};

const SECTIONS = ['summary', 'reliability', 'coverage', 'errors', 'suppression', 'baselines', 'tier2-rent', 'gates'];
const svgsOf = (html: string): string[] => [...html.matchAll(/<svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);

describe('renderReportHtml on a full report', () => {
  const html = renderReportHtml({ ...fullReport(), ...allSales });

  it('has every section, the holdout dates, snapshot id, version and promotion outcome', () => {
    for (const id of SECTIONS) expect(html).toContain(`<section id="${id}">`);
    for (const s of ['2024-07-01', '2025-07-14', '2026-06-30', 'snap-20261121-01', 'cal-2.1.0-abc123', 'NOT promoted']) expect(html).toContain(s);
    expect(html).toContain('<td class="fail">FAIL</td>');
    expect(html).toMatch(/<th scope="row">cod<\/th><td>16\.200<\/td>/);
    expect(html).toMatch(/<th scope="row">n<\/th><td>600<\/td>/);
  });

  it('draws the reliability plot, coverage by segment and by ladder step, error strips and histograms, MdAPE beside baselines', () => {
    for (const name of ['Reliability of confidence_p10', 'Coverage by segment', 'Coverage by ladder step', 'Coverage by segment and ladder step', 'Quantiles of the signed log error', 'Signed log error, overall', 'MdAPE of the model beside its baselines']) {
      expect(html).toContain(`aria-label="${name}"`);
    }
    // Three reliability bins with their n, one circle each (r scales with n).
    expect(html.match(/class="bin-dot"/g)).toHaveLength(3);
    // The <script> segment has no calibration row: its sale is unrated, not binned.
    expect(html).toContain('2 in segments with neither a row nor a fallback');
    expect(html).toContain('confidence_p10 85–90: n 4, mean promised 85.0, observed 75.0 (95% 30.1–95.4)');
  });

  it('percentages carry one decimal; the naive and oracle baselines sit beside the model by kind and group', () => {
    expect(html).toContain('<th scope="row">ARV vs renovated/new · sfh_city</th><td>50</td><td>5</td><td>8.1%</td>');
    expect(html).toContain('<td>11.3%</td>');
    expect(html).toContain('<td>6.6%</td>');
    expect(html).toContain('<td>10.4%</td><td>12.1%</td>'); // model and naive on the sales both valued
    expect(html).not.toContain('not computed');
    expect(html).toContain('naive: no value for this group'); // as-is has no naive row in the fixture
  });

  it('plots suppression: the share suppressed per segment, and point / range / suppressed per kind and group as served', () => {
    expect(html).toContain('aria-label="Suppressed share by segment"');
    expect(html).toContain('aria-label="What serving showed, every arms-length sale"');
    // Segment rows carry suppressionRate 0.05 (n 40); the all-sales rows 80% point, 10% range, 10% suppressed of 25.
    expect(html).toContain('<title>sfh_city: valued 95.0%, suppressed 5.0% of 40</title>');
    expect(html).toContain('<title>overall · all: point 80.0%, range 10.0%, suppressed 10.0% of 25</title>');
    expect(html.match(/class="share-suppressed"/g)!.length).toBeGreaterThanOrEqual(4);
  });

  it('draws the error strips at the registry\'s quantiles (REPORT_FIGURES.error_quantiles), not a copy', () => {
    const strips = svgsOf(html).find((s) => s.includes('aria-label="Quantiles of the signed log error"'))!;
    expect(strips).toContain('class="q-box"');
    expect(strips).toMatch(/p5 -?\d\.\d{3}, p10 /);
  });

  it('Tier 2 is tabled; the rent backtest that did not run says why', () => {
    expect(html).toContain('Tier 2 (hedonic_v1-x), fit before 2025-07-14, scored over 352 days');
    expect(html).toContain('rent backtest not run: validation_failed: no ground truth');
  });

  it('escapes every text: a segment named <script> comes out inert', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('is well-formed: every SVG strictly, the document with HTML void elements', () => {
    const svgs = svgsOf(html);
    expect(svgs.length).toBeGreaterThanOrEqual(8);
    for (const s of svgs) expect(markupProblems(s)).toEqual([]);
    expect(markupProblems(html, ['meta'])).toEqual([]);
  });

  it('is self-contained: no script, stylesheet link, image or URL other than the SVG namespace', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe|object)\b/i);
    expect(html).not.toMatch(/\b(src|href)="(?!#)/);
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '')).not.toMatch(/https?:/);
    expect(html).not.toMatch(/@import|url\(/);
  });
});

describe('renderReportHtml on a report without data', () => {
  const bare: CalibrationReport = {
    version: 'cal-empty', snapshotId: 'snap-0', holdout: { start: '2025-01-01', split: '2025-06-01', end: '2025-12-31', sales: 0, calibrationSales: 0, testSales: 0 },
    rows: [], classes: [], gates: { passed: false, checks: [] }, promoted: false, elapsedMs: 5, besideTier1: null,
  };
  const html = renderReportHtml(bare);

  it('keeps every section and says in each that there is nothing to show', () => {
    for (const id of SECTIONS) expect(html).toContain(`<section id="${id}">`);
    for (const s of ['No segment has test sales.', 'nothing to plot', 'No suppression figures:', 'No segment has valued test sales.', 'No valued test sale: no error distribution.', 'all-sales backtest and its baselines were not computed', 'were not run', 'No gate was evaluated.']) expect(html).toContain(s);
    expect(svgsOf(html)).toEqual([]);
    expect(markupProblems(html, ['meta'])).toEqual([]);
  });

  it('with rows but no all-sales section the baselines section says it was not computed', () => {
    const page = renderReportHtml({ ...bare, rows: [row('sfh_city')] });
    expect(page).toContain('The all-sales backtest and its baselines were not computed in this report.');
    expect(page).not.toContain('class="bar est-2"');
    for (const s of svgsOf(page)) expect(markupProblems(s)).toEqual([]);
  });
});
