// The calibration report as one self-contained HTML page (inline CSS and SVG, no script, nothing fetched): a pure
// function of the report, so `avm calibrate --report --html FILE` writes it and the service can serve the same page.
import { el, escapeHtml } from './svg.js';
import { page, para, table } from './layout.js';
import { baselinesSection, besideSection, coverageSection, errorsSection, gatesSection, reliabilitySection, summarySection, suppressionSection, type HtmlReportInput } from './sections.js';

export type { HtmlReportInput } from './sections.js';

const CONTENTS: ReadonlyArray<[string, string]> = [
  ['summary', 'Per segment'], ['reliability', 'Reliability'], ['coverage', 'Coverage'], ['errors', 'Errors'], ['suppression', 'Suppression'],
  ['baselines', 'Baselines'], ['tier2-rent', 'Tier 2 and rent'], ['gates', 'Gates'],
];

function header(r: HtmlReportInput): string {
  const h = r.holdout;
  const facts = table(['', ''], [
    ['calibration version', r.version],
    ['sales snapshot', r.snapshotId],
    ['holdout', `${h.start} to ${h.end} (${h.sales} sales)`],
    ['calibration half', `${h.start} to the day before ${h.split} (${h.calibrationSales} sales)`],
    ['test half', `${h.split} to ${h.end} (${h.testSales} sales)`],
    ['outcome', r.promoted ? 'promoted to champion' : 'not promoted'],
    ['run time', `${(r.elapsedMs / 1000).toFixed(1)} s`],
  ]);
  const nav = el('nav', {}, ...CONTENTS.map(([id, name]) => el('a', { href: `#${id}` }, escapeHtml(name))));
  return el('header', {}, el('h1', {}, 'Calibration report'), para('Out-of-time backtest of the Tier-1 ARV, its split-conformal 80% intervals and confidence_p10.', 'lead'), facts, nav);
}

/** The report page (UTF-8 HTML document). `preface`: built sections placed after the header (the service's GET /model adds the registry standing and data vintages). */
export function renderReportHtml(r: HtmlReportInput, ...preface: string[]): string {
  return page(`Calibration report ${r.version}`, header(r), ...preface, summarySection(r), reliabilitySection(r), coverageSection(r), errorsSection(r), suppressionSection(r), baselinesSection(r), besideSection(r), gatesSection(r));
}
