// GET /model: the stored calibration report of the champion (without a champion, the latest calibration's, labelled
// not promoted with its failed gates) as the same self-contained page `avm calibrate --report --html` writes, preceded
// by the registry's standing (champion, rollback, history) and the data vintages. Reads the store only: the report
// was stored by the calibration job (registry/report-store.ts); nothing is computed here.
import type { GateCheck, RegistryEntry } from '../registry/model-registry.js';
import { reportToShow, type ShownReport } from '../registry/report-store.js';
import { VALUATION_REGISTRY_VERSION } from '../registry/constants.js';
import { MODEL_VERSION } from '../registry/versions.js';
import { META_KEYS } from '../store/snapshots.js';
import type { Store } from '../store/store.js';
import { numOr, page, para, section, table } from '../valuation/calibration/html/layout.js';
import { renderReportHtml } from '../valuation/calibration/html/report-html.js';
import { el, escapeHtml } from '../valuation/calibration/html/svg.js';

/**
 * The page carries no script and fetches nothing (inline CSS and SVG only): the policy forbids both, so even a
 * rendering defect that let markup through could not run or load anything; nor may another site frame it.
 */
export const MODEL_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // A promotion or a new calibration changes the page at once.
  'Cache-Control': 'no-store',
};

const gateRows = (checks: readonly GateCheck[]) => checks.map((c) => [c.gate, numOr(c.value), c.target, c.passed ? 'pass' : 'FAIL']);

function standingSection(shown: ShownReport): string {
  const r = shown.report!;
  const failed = r.gates.checks.filter((c) => !c.passed);
  const failedTable = failed.length ? table(['failed gate', 'value', 'target', ''], gateRows(failed)) : '';
  const body = shown.standing === 'champion'
    ? [para('Champion: serving uses this calibration (its intervals, confidence and display settings).')]
    : shown.standing === 'latest_rejected'
      ? [para('Not promoted: serving shows ranges only. No calibration has passed the promotion gates; this is the latest one, and it failed these:', 'empty'), failedTable]
      : [para(`Not the champion: serving uses ${shown.registry.champion!.calibrationVersion}, whose report is not stored (calibrated before reports were kept; \`avm calibrate\` stores one). This is the latest stored report${failed.length ? '; it failed these gates:' : '.'}`, 'empty'), failedTable];
  return section('standing', 'Standing in the model registry', ...body);
}

const entryCells = (e: RegistryEntry | null): string[] => (e ? [e.calibrationVersion, e.status, e.createdAt, e.snapshotId, e.digest.slice(0, 16)] : ['none', '—', '—', '—', '—']);

function registrySection(shown: ShownReport): string {
  const { champion, rollback, history } = shown.registry;
  const pointers = table(['pointer', 'calibration version', 'status', 'created', 'snapshot', 'digest (first 16)'], [['champion', ...entryCells(champion)], ['rollback', ...entryCells(rollback)]]);
  const rows = history.map((e) => [e.calibrationVersion, e.status, e.createdAt, e.snapshotId, e.gates.passed ? 'pass' : 'FAIL']);
  return section('registry', 'Model registry (as GET /api/model-registry)', pointers,
    rows.length ? table(['calibration version', 'status', 'created', 'snapshot', 'gates'], rows, 'History, newest first') : para('No calibration has been submitted yet.', 'empty'));
}

function vintagesSection(store: Store, report: ShownReport['report'], now: Date): string {
  const current = store.currentSnapshotId();
  const info = store.listSnapshots().find((s) => s.id === current);
  const ingest = store.getMeta<{ at?: string }>(META_KEYS.lastIngest);
  const reportSnapshot = report ? `${report.snapshotId}${report.snapshotId === current ? ' (the current one)' : ' (not the current snapshot)'}` : '—';
  return section('vintages', 'Data vintages', table(['', ''], [
    ['current sales snapshot', current ?? 'none'],
    ['snapshot created', info?.created_at ?? '—'],
    ['snapshot sales rows', info ? String(info.sales_rows) : '—'],
    ['report\'s snapshot', reportSnapshot],
    ['corpus vintage', store.corpusVintage() ?? '—'],
    ['last ingest', ingest?.at ?? '—'],
    ['model version', MODEL_VERSION],
    ['registry version', VALUATION_REGISTRY_VERSION],
    ['page generated', now.toISOString()],
  ]));
}

/** The one link out of the served page: back to the map, which links here. */
const mapLink = (): string => el('p', { class: 'lead' }, el('a', { href: '/' }, 'Back to the map'));

/** The GET /model page (UTF-8 HTML document). */
export function modelPage(store: Store, now: Date): string {
  const shown = reportToShow(store);
  if (!shown.report) {
    const lead = para('No calibration report is stored yet: `avm calibrate` stores one (first start runs it). Until a calibration passes the promotion gates, serving shows ranges only.', 'empty');
    return page('Model', el('header', {}, el('h1', {}, escapeHtml('Model')), lead), mapLink(), registrySection(shown), vintagesSection(store, null, now));
  }
  return renderReportHtml(shown.report, mapLink(), standingSection(shown), registrySection(shown), vintagesSection(store, shown.report, now));
}
