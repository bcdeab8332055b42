// The report page's sections, each a pure function of the calibration report; a section without data says so.
import { REPORT_FIGURES } from '../../../registry/groups/report.js';
import { TIER1 } from '../../../registry/groups/tier1.js';
import { VALUATION_DISPLAY } from '../../../registry/groups/valuation.js';
import type { CalibrationReport } from '../job.js';
import { coverageChart, errorHistogram, mdapeChart, quantileStrips, reliabilityChart, shareChart, type MdapeGroup, type ShareRow } from './charts.js';
import { empty, numOr, para, pctOr, section, table } from './layout.js';
import { el, escapeHtml } from './svg.js';

/** What the page reads: the calibration report (its `allSales` rows and `baselines` when the report run computed them). */
export type HtmlReportInput = CalibrationReport;

export function summarySection(r: HtmlReportInput): string {
  const rows = r.rows.map((x) => [x.group, x.n, pctOr(x.mdape), pctOr(x.oracleMdape), pctOr(x.ppe10), pctOr(x.coverage80), pctOr(x.oracleCoverage80), numOr(x.meanWidth80), numOr(x.cod, 2), numOr(x.prd), numOr(x.prb), pctOr(x.suppressionRate), x.display ?? '—']);
  return section('summary', 'Tier 1 on the test half, per segment',
    para('Each test sale valued as of the day before it from earlier sales only; intervals from the calibration half. Oracle = the generator\'s true value against the same prices (a synthetic corpus only).'),
    rows.length ? table(['segment', 'n', 'MdAPE', 'oracle MdAPE', 'PPE10', 'cov80', 'oracle cov80', 'width80', 'COD', 'PRD', 'PRB', 'suppressed', 'display'], rows) : empty('No segment has test sales.'));
}

export function reliabilitySection(r: HtmlReportInput): string {
  const rel = r.figures?.reliability;
  const intro = para('confidence_p10 is P(|error| ≤ 10%) × 100 measured on the calibration half of each calibration row (segment, or its ladder-step class, or the declared pooled fallback): the share of estimates within ±10% of the price that serving promises. Each test sale is placed at the confidence_p10 serving gives it and scored by whether it fell within ±10%. Points on the dashed diagonal keep the promise; bars are 95% Wilson intervals, grey dots single calibration rows.');
  if (!rel || rel.bins.length === 0) return section('reliability', 'Reliability of confidence_p10', intro, empty('No test sale carries a confidence_p10 (no calibrated row, or no valued test sale): nothing to plot.'));
  const bins = rel.bins.map((b) => [`${b.lo}–${b.hi}`, b.n, b.meanPredicted.toFixed(1), b.observed.toFixed(1), `${b.ciLo.toFixed(1)}–${b.ciHi.toFixed(1)}`]);
  const points = rel.points.map((p) => [p.key, p.n, p.predicted.toFixed(1), p.observed.toFixed(1)]);
  return section('reliability', 'Reliability of confidence_p10', intro,
    el('div', { class: 'grid2' }, reliabilityChart(rel), el('div', {}, table(['bin', 'n', 'mean promised', 'observed', '95% interval'], bins, 'Bins of promised confidence_p10 (points)'), table(['calibration row', 'n', 'promised', 'observed'], points, 'Per calibration row'))),
    para(`${rel.nRated} valued test sales rated; ${rel.nUnrated} in segments with neither a row nor a fallback.`));
}

export function coverageSection(r: HtmlReportInput): string {
  const nominal = VALUATION_DISPLAY.v.interval_coverage;
  const tol = TIER1.v.gate_coverage_tolerance;
  const intro = para(`Share of test prices inside the split-conformal ${Math.round(nominal * 100)}% interval; shaded: nominal ± ${Math.round(tol * 100)} points (the display gate). Rings: the oracle's coverage under the same split.`);
  const segs = r.rows.filter((x) => x.n > 0).map((x) => ({ label: x.group, n: x.n, value: x.coverage80, oracle: x.oracleCoverage80 }));
  const steps = (r.figures?.coverageByStep ?? []).map((g) => ({ label: g.group, n: g.n, value: g.coverage80 }));
  const classes = r.classes.map((c) => ({ label: `${c.group}${c.interval === 'segment_fallback' ? ' *' : ''}`, n: c.n, value: c.coverage80 }));
  return section('coverage', 'Coverage of the 80% interval', intro,
    el('h3', {}, 'By segment'), segs.length ? coverageChart(segs, nominal, tol, 'Coverage by segment') : empty('No segment has valued test sales.'),
    el('h3', {}, 'By evidence class (ladder step, +prior when its own earlier sale moved the value), all calibrated segments'), steps.length ? coverageChart(steps, nominal, tol, 'Coverage by ladder step') : empty('No valued test sale in a calibrated segment.'),
    el('h3', {}, 'By segment and evidence class'), classes.length ? coverageChart(classes, nominal, tol, 'Coverage by segment and ladder step') : empty('No segment has a calibrated row with valued test sales.'),
    classes.length ? para('* no class row of its own: the segment\'s interval.') : '');
}

export function errorsSection(r: HtmlReportInput): string {
  const e = r.figures?.errors;
  const intro = para('Signed log error ln(estimate / price) of the valued test sales: below 0 the model is under the price. Shaded: ±10%.');
  if (!e || e.groups.every((g) => g.n === 0)) return section('errors', 'Error distributions', intro, empty('No valued test sale: no error distribution.'));
  return section('errors', 'Error distributions', intro, quantileStrips(e.groups, REPORT_FIGURES.v.log_error_limit),
    el('div', { class: 'grid2' }, ...e.groups.filter((g) => g.n > 0).map((g) => errorHistogram(g, e.edges))));
}

const KIND_LABEL: Record<string, string> = { arv: 'ARV vs renovated/new', as_is: 'as-is vs the rest', overall: 'overall' };

/** What a section says of a missing all-sales backtest: withheld from the served report (truth-picked kinds), or not run. */
function allSalesAbsent(r: HtmlReportInput, notRun: string): string {
  return r.withheld?.includes('allSales')
    ? empty('Computed by `avm calibrate --report`, not served here: it splits the sales by their true condition (the generator\'s ground truth), which the service never shows. The report file of that run has it.')
    : empty(notRun);
}

/**
 * How often serving refused: the share of test sales suppressed per segment (Tier 1 on the test half), and for every
 * arms-length sale of the holdout the point / range / suppressed shares under the display serving gives it.
 */
export function suppressionSection(r: HtmlReportInput): string {
  const intro = para('A suppressed sale got no value (a refusal, counted in n, never dropped); a range shows low–high without a midpoint. Shares of the test sales under the display each sale\'s calibration row allows.');
  const segs: ShareRow[] = r.rows.filter((x) => x.n > 0 && x.suppressionRate !== null).map((x) => ({ label: x.group, n: x.n, parts: [{ name: 'valued', share: 1 - x.suppressionRate! }, { name: 'suppressed', share: x.suppressionRate! }] }));
  const outcomes: ShareRow[] = (r.allSales?.rows ?? []).filter((m) => m.nOutcome > 0 && m.pointShare !== null).map((m) => ({
    label: `${KIND_LABEL[m.kind] ?? m.kind} · ${m.group}`, n: m.nOutcome,
    parts: [{ name: 'point', share: m.pointShare! }, { name: 'range', share: m.rangeShare ?? 0 }, { name: 'suppressed', share: m.suppressedShare ?? 0 }],
  }));
  if (!segs.length && !outcomes.length && !r.withheld?.includes('allSales')) return section('suppression', 'Suppression and the display ladder', intro, empty('No suppression figures: no segment has test sales and the all-sales backtest was not computed.'));
  return section('suppression', 'Suppression and the display ladder', intro,
    el('h3', {}, 'Tier 1 by segment'), segs.length ? shareChart(segs, 'Suppressed share by segment') : empty('No segment has test sales.'),
    el('h3', {}, 'Every arms-length sale, as served'), outcomes.length ? shareChart(outcomes, 'What serving showed, every arms-length sale') : allSalesAbsent(r, 'The all-sales backtest was not computed in this report.'));
}

/**
 * Model, oracle and naive on the same sales: the all-sales rows (every arms-length sale of the holdout against the value
 * that applies to it) matched with the baselines by kind and group. Without them (an older report) the banner says so.
 */
export function baselinesSection(r: HtmlReportInput): string {
  const intro = para('Every arms-length sale of the holdout, each against the value that applies to it (ARV for renovated and new sales, as-is for the rest). Oracle: the generator\'s true value (the floor the sale noise leaves; synthetic corpora only). Naive: 8 nearest comps within 1 mi, ±20% sqft, ±1 bed, median $/sf, on the same sales.');
  const model = r.allSales?.rows ?? [];
  if (model.length === 0) return section('baselines', 'Model beside the oracle and naive baselines', intro, allSalesAbsent(r, 'The all-sales backtest and its baselines were not computed in this report.'));
  const base = r.baselines ?? [];
  const find = (name: 'naive' | 'oracle', kind: string, group: string) => base.find((b) => b.name === name && b.kind === kind && b.group === group);
  const labelOf = (kind: string, group: string): string => `${KIND_LABEL[kind] ?? kind} · ${group}`;
  const rows = model.map((m) => {
    const o = find('oracle', m.kind, m.group);
    const nv = find('naive', m.kind, m.group);
    return [labelOf(m.kind, m.group), m.n, m.refused, pctOr(m.mdape), pctOr(m.ppe20), numOr(m.cod, 2), pctOr(o?.mdape), nv ? nv.n : '—', pctOr(nv?.mdape), numOr(nv?.cod, 2)];
  });
  const chart: MdapeGroup[] = model.filter((m) => m.group === 'all').map((m) => ({
    group: KIND_LABEL[m.kind] ?? m.kind,
    bars: [
      { name: 'model', value: m.mdape },
      { name: 'oracle', value: find('oracle', m.kind, m.group)?.mdape ?? null, missing: 'no true values (real corpus)' },
      { name: 'naive', value: find('naive', m.kind, m.group)?.mdape ?? null, missing: 'no value for this group' },
    ],
  }));
  const paired = (r.allSales?.vsNaive ?? []).map((v) => [KIND_LABEL[v.kind] ?? v.kind, v.n, pctOr(v.modelMdape), pctOr(v.naiveMdape)]);
  return section('baselines', 'Model beside the oracle and naive baselines', intro,
    mdapeChart(chart),
    table(['kind · group', 'n', 'refused', 'model MdAPE', 'model PPE20', 'model COD', 'oracle MdAPE', 'naive valued', 'naive MdAPE', 'naive COD'], rows),
    paired.length ? table(['kind', 'sales both valued', 'model MdAPE', 'naive MdAPE'], paired, 'Model and naive on the sales both valued') : '');
}

export function besideSection(r: HtmlReportInput): string {
  const b = r.besideTier1;
  if (!b) return section('tier2-rent', 'Tier 2 and rent', empty('Tier-2 and rent backtests were not run for this report.'));
  const parts: string[] = [];
  if (b.tier2.ok) {
    const h = b.tier2.result;
    parts.push(el('h3', {}, escapeHtml(`Tier 2 (${h.model_version}), fit before ${h.cutoff}, scored over ${h.horizon_days} days`)),
      table(['segment', 'n', 'MdAPE', 'PPE10', 'cov80', 'width80', 'unresolved', 'display-eligible'], [
        ...h.segments.map((s) => [s.segment, s.n_test, pctOr(s.mdape), pctOr(s.ppe10), pctOr(s.coverage80), numOr(s.mean_width), s.n_unresolved, s.display_eligible ? 'yes' : 'no']),
        ['overall', h.overall.n_test, pctOr(h.overall.mdape), pctOr(h.overall.ppe10), pctOr(h.overall.coverage80), numOr(h.overall.mean_width), h.overall.n_unresolved, '—'],
      ]));
  } else parts.push(el('h3', {}, 'Tier 2'), empty(b.tier2.note));
  if (b.rent.ok) {
    const x = b.rent.result;
    const rows = [...x.segments, ...x.groups.map((g) => ({ ...g, group: g.group === 'all' ? 'overall' : `${g.group} (all areas)` }))];
    parts.push(el('h3', {}, escapeHtml(`Rent: as-is contract rent against the true rent, sales ${x.window_from} to ${x.window_to} (${x.n_skipped} skipped)`)),
      table(['group', 'n', 'MdAPE', 'PPE10', 'median est/true', 'band coverage'], rows.map((g) => [g.group, g.n, pctOr(g.mdape), pctOr(g.ppe10), numOr(g.median_ratio), pctOr(g.coverage)])));
  } else parts.push(el('h3', {}, 'Rent'), empty(b.rent.note));
  return section('tier2-rent', 'Tier 2 and rent', ...parts);
}

export function gatesSection(r: HtmlReportInput): string {
  const checks = r.gates.checks.map((c) => el('tr', {}, el('th', { scope: 'row' }, escapeHtml(c.gate)), el('td', {}, escapeHtml(c.value !== null && Number.isInteger(c.value) ? String(c.value) : numOr(c.value))), el('td', {}, escapeHtml(c.target)), el('td', { class: c.passed ? 'pass' : 'fail' }, c.passed ? 'pass' : 'FAIL')));
  const head = el('thead', {}, el('tr', {}, ...['gate', 'value', 'target', 'result'].map((h) => el('th', {}, h))));
  return section('gates', 'Promotion gates',
    checks.length ? el('table', {}, head, el('tbody', {}, ...checks)) : empty('No gate was evaluated.'),
    el('p', { class: r.promoted ? 'pass' : 'fail' }, r.promoted ? 'Promoted to champion: serving uses this table.' : 'NOT promoted: serving keeps the previous champion.'));
}
