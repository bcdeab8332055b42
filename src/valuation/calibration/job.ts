// `npx avm calibrate [--report]`: runs the out-of-time backtest on the current snapshot, builds the versioned
// calibration table, submits it to the model registry (promoted only through the gates), stores the report beside the
// table (GET /model serves it) and, with --report, writes it (bench/results/calibration.json + a markdown table) with
// the oracle's MdAPE beside the model's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VALUATION_REGISTRY_VERSION } from '../../registry/constants.js';
import { evaluatePromotionGates, type GateSummary, type RegistryEntry } from '../../registry/model-registry.js';
import { lmdbRegistry, type RegistryStore } from '../../registry/registry-store.js';
import { copyRegistry } from '../../registry/registry-sync.js';
import { MODEL_VERSION } from '../../registry/versions.js';
import type { Store } from '../../store/store.js';
import { salesColumnsFromArrow, type SalesColumns } from '../../store/sales-columns.js';
import { isoOfDay } from '../../store/days.js';
import { mdape } from './metrics.js';
import { evidenceClassOf, intervalRowFor, type CalibrationTable, type SegmentMetrics } from '../decide/segment.js';
import { runBacktest, type BacktestRecord } from './backtest.js';
import { allSalesMarkdown, allSalesSection, saleKindsFrom, type AllSalesSection } from './all-sales-report.js';
import type { BaselineRow } from './baselines.js';
import { oracleCoverage, pooledOracleCoverage, readSalesTruth, saleKeyOf, type OracleCoverage, type SaleTruth } from './oracle.js';
import { backtestsBesideTier1, besideMarkdown, type BesideTier1 } from './report-extra.js';
import { reportFigures, type ReportFigures } from './report-figures.js';
import { classifierMetricsOf, type ConditionClassifierReport } from './condition-metrics.js';
import { boundsFor, buildCalibrationTable, groupMetrics, splitInTime, type Split } from './table.js';

/**
 * `oracleCoverage80`: the segment's split-conformal procedure with the generator's true value as the estimate (oracle.ts
 * oracleCoverage): the coverage the time split allows a perfect model; overall = the segments' oracle bands pooled.
 */
export type ReportRow = SegmentMetrics & { group: string; display: string | null; q80Lo: number | null; q80Hi: number | null; oracleMdape: number | null; oracleN: number; oracleCoverage80: number | null };
/** Test metrics of one evidence class of a segment under the interval serving gives it (own Mondrian row or the segment's). */
export type ClassReportRow = SegmentMetrics & { group: string; interval: 'class' | 'segment_fallback'; nCalibration: number; q80Lo: number; q80Hi: number };
export type CalibrationReport = {
  version: string;
  snapshotId: string;
  holdout: { start: string; split: string; end: string; sales: number; calibrationSales: number; testSales: number };
  rows: ReportRow[];
  /** Per segment × evidence class (ladder step) seen in the test half. */
  classes: ClassReportRow[];
  gates: GateSummary;
  promoted: boolean;
  elapsedMs: number;
  /** Tier-2 and rent errors beside Tier 1 (report runs only; report-extra.ts). */
  besideTier1?: BesideTier1 | null;
  /** What the HTML page draws beyond the rows: reliability, coverage per ladder step, error distributions (report-figures.ts). */
  figures?: ReportFigures;
  /** Every arms-length sale of the holdout against the value that applies to it: arv / as_is / overall (report runs only). */
  allSales?: AllSalesSection | null;
  /** The naive comps estimator and the oracle on the same sales and groups as allSales.rows (report runs only). */
  baselines?: BaselineRow[];
  /** The ingest's condition estimate against the generator's true condition (condition-metrics.ts); null without truth/. */
  conditionClassifier?: ConditionClassifierReport | null;
  /** Sections computed but left out of the stored report (withoutTruth): the page says they are withheld, not missing. */
  withheld?: Array<'allSales'>;
};

/**
 * The report as the service may show it: the generator's ground truth never reaches serving, so the oracle figures,
 * the oracle baselines, the condition classifier and an all-sales section whose kinds came from the true condition
 * are left out (the CLI's report and bench/results keep them).
 */
export function withoutTruth(r: CalibrationReport): CalibrationReport {
  const byTruth = r.allSales?.kindSource === 'truth';
  return {
    ...r,
    rows: r.rows.map((x) => ({ ...x, oracleMdape: null, oracleN: 0, oracleCoverage80: null })),
    ...(byTruth ? { allSales: null, baselines: [], withheld: ['allSales' as const] } : { baselines: r.baselines?.filter((b) => b.name !== 'oracle') }),
    conditionClassifier: null,
  };
}

/** Oracle MdAPE (|true − price| / price) over the valued test sales of a group. */
function oracleOf(test: readonly BacktestRecord[], sales: SalesColumns, truth: ReadonlyMap<string, SaleTruth> | null): { mdape: number | null; n: number } {
  if (!truth) return { mdape: null, n: 0 };
  const pairs = test
    .filter((r) => r.estimateUsd !== null)
    .map((r) => ({ t: truth.get(saleKeyOf(sales, r.row))?.trueValue, p: r.priceUsd }))
    .filter((x): x is { t: number; p: number } => x.t !== undefined && x.t > 0);
  return pairs.length ? { mdape: mdape(pairs.map((x) => x.t), pairs.map((x) => x.p)), n: pairs.length } : { mdape: null, n: 0 };
}

function reportRows(table: CalibrationTable, split: Split, sales: SalesColumns, truth: ReadonlyMap<string, SaleTruth> | null): ReportRow[] {
  const { calibration: cal, test } = split;
  const truthOf = (r: BacktestRecord): number | undefined => truth?.get(saleKeyOf(sales, r.row))?.trueValue;
  const segs = [...new Set(test.map((r) => r.segment))].sort();
  const covs: OracleCoverage[] = [];
  const rows = segs.map((seg) => {
    const row = table.segments[seg];
    const recs = test.filter((r) => r.segment === seg);
    const m = row ? row.test : groupMetrics(recs, null);
    const o = oracleOf(recs, sales, truth);
    const cov = truth ? oracleCoverage(cal.filter((r) => r.segment === seg), recs, truthOf) : null;
    if (cov) covs.push(cov);
    return { group: seg, ...m, display: row?.display ?? null, q80Lo: row?.q80Lo ?? null, q80Hi: row?.q80Hi ?? null, oracleMdape: o.mdape, oracleN: o.n, oracleCoverage80: cov?.coverage80 ?? null };
  });
  const o = oracleOf(test, sales, truth);
  return [...rows, { group: 'overall', ...table.overall, display: null, q80Lo: null, q80Hi: null, oracleMdape: o.mdape, oracleN: o.n, oracleCoverage80: pooledOracleCoverage(covs) }];
}

/** Every (segment, class) of the valued test sales of calibrated segments, with the interval each got. */
function classReportRows(table: CalibrationTable, test: readonly BacktestRecord[]): ClassReportRow[] {
  const out: ClassReportRow[] = [];
  for (const [seg, row] of Object.entries(table.segments).sort((a, b) => a[0].localeCompare(b[0]))) {
    const recs = test.filter((r) => r.segment === seg && r.estimateUsd !== null);
    const classes = [...new Set(recs.map((r) => evidenceClassOf(r) ?? 'none'))].sort();
    for (const k of classes) {
      const inClass = recs.filter((r) => (evidenceClassOf(r) ?? 'none') === k);
      const used = intervalRowFor(row, inClass[0]);
      const own = row.classes?.[k];
      out.push({
        group: `${seg}/${k}`, ...groupMetrics(inClass, (r) => boundsFor(row, r)), interval: own ? 'class' : 'segment_fallback',
        nCalibration: own?.nCalibration ?? row.nCalibration, q80Lo: used.q80Lo, q80Hi: used.q80Hi,
      });
    }
  }
  return out;
}

const f = (x: number | null, d = 3): string => (x === null ? '—' : x.toFixed(d));
const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

export function reportMarkdown(r: CalibrationReport): string {
  const head = '| segment | n | MdAPE | oracle MdAPE | PPE10 | cov80 | oracle cov80 | width80 | COD | PRD | PRB | suppressed | display |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const lines = r.rows.map((x) => `| ${x.group} | ${x.n} | ${pct(x.mdape)} | ${pct(x.oracleMdape)} | ${pct(x.ppe10)} | ${pct(x.coverage80)} | ${pct(x.oracleCoverage80)} | ${f(x.meanWidth80)} | ${f(x.cod, 2)} | ${f(x.prd)} | ${f(x.prb)} | ${pct(x.suppressionRate)} | ${x.display ?? '—'} |`);
  const gates = r.gates.checks.map((c) => `${c.gate}=${c.value === null ? '—' : c.value.toFixed(3)} (${c.target}) ${c.passed ? 'pass' : 'FAIL'}`).join('; ');
  const classHead = ['Mondrian evidence classes (test half; interval = own class row or the segment row as fallback):', '| segment/class | n | cov80 | width80 | q80 | interval | n calibration |', '|---|---|---|---|---|---|---|'];
  const classLines = r.classes.map((x) => `| ${x.group} | ${x.n} | ${pct(x.coverage80)} | ${f(x.meanWidth80)} | ${f(x.q80Lo)}–${f(x.q80Hi)} | ${x.interval} | ${x.nCalibration} |`);
  return [`Calibration ${r.version} (snapshot ${r.snapshotId}); holdout ${r.holdout.start} → ${r.holdout.end}, split ${r.holdout.split}`, head, ...lines, ...classHead, ...classLines, ...(r.besideTier1 ? besideMarkdown(r.besideTier1, r.rows) : []), ...(r.allSales ? allSalesMarkdown(r.allSales, r.baselines ?? []) : []), `Promotion gates: ${gates} → ${r.promoted ? 'promoted to champion' : 'NOT promoted'}`].join('\n');
}

/**
 * `besideTier1`: also run the Tier-2 and rent backtests for the report; `allSales`: also score every arms-length sale
 * with the naive and oracle baselines (both default to true when writing the report, `resultsDir`).
 */
export type CalibrateOptions = {
  dataDir: string; resultsDir?: string | null; now?: () => Date; onProgress?: (msg: string) => void; besideTier1?: boolean; allSales?: boolean;
  /** Replicas: the registry shared in PostgreSQL decides the promotion; the store's own registry then mirrors it. */
  sharedRegistry?: RegistryStore;
};

/** Runs the whole job against an open store; returns the table, the registry entry and the report. */
export async function calibrate(store: Store, opts: CalibrateOptions): Promise<{ table: CalibrationTable; entry: RegistryEntry; report: CalibrationReport }> {
  const t0 = performance.now();
  const snap = store.readSalesSnapshot();
  const sales = salesColumnsFromArrow(snap.table);
  const munis = new Map(store.getTracts().map((t) => [t.geoid, t.muni]));
  const scoreAll = opts.allSales ?? Boolean(opts.resultsDir);
  const wantBeside = opts.besideTier1 ?? Boolean(opts.resultsDir);
  // Only a report run reads the ground truth (oracle rows, sale kinds, condition classifier): first start's
  // calibration (`avm calibrate` without --report) stores its report for GET /model, and nothing in it comes from truth/.
  const reportRun = scoreAll || wantBeside;
  // Read once for the whole report: oracle rows, sale kinds and the condition classifier.
  const truth = reportRun ? await readSalesTruth(opts.dataDir, sales) : null;
  const kinds = scoreAll ? saleKindsFrom(sales, truth) : null;
  const bt = runBacktest(sales, (g) => munis.get(g) ?? null, { onMonth: (m, n) => opts.onProgress?.(`backtest ${m}: ${n} sales`), kindOf: kinds?.kindOf });
  const now = (opts.now ?? (() => new Date()))();
  const table = buildCalibrationTable(bt.records, { createdAt: now.toISOString(), snapshotId: snap.id, modelVersion: MODEL_VERSION, registryVersion: VALUATION_REGISTRY_VERSION, startDay: bt.startDay, endDay: bt.endDay, priorSale: bt.priorSale, priorSaleAsIs: bt.priorSaleAsIs });
  const gates = evaluatePromotionGates(table.overall);
  const registry = opts.sharedRegistry ?? lmdbRegistry(store);
  const entry = await registry.submit(table, gates);
  const split = splitInTime(bt.records);
  const beside = wantBeside ? await backtestsBesideTier1(store, sales, { dataDir: opts.dataDir, splitDay: split.splitDay, endDay: bt.endDay }) : null;
  const all = kinds && bt.scored ? allSalesSection(sales, bt.scored, table, kinds, bt) : null;
  const report: CalibrationReport = {
    version: table.version, snapshotId: snap.id,
    holdout: { start: isoOfDay(bt.startDay), split: isoOfDay(split.splitDay), end: isoOfDay(bt.endDay - 1), sales: bt.records.length, calibrationSales: split.calibration.length, testSales: split.test.length },
    rows: reportRows(table, split, sales, truth), classes: classReportRows(table, split.test), gates, promoted: entry.status === 'champion', elapsedMs: Math.round(performance.now() - t0),
    besideTier1: beside, figures: reportFigures(table, split.test),
    ...(all ? { allSales: all.section, baselines: all.baselines } : {}),
    conditionClassifier: scoreAll ? classifierMetricsOf(truth, sales) : null,
  };
  // Beside its table, for the service's GET /model (aggregates only: tens of kilobytes), without what truth/ gave.
  await registry.putReport(withoutTruth(report));
  if (opts.sharedRegistry) await copyRegistry(opts.sharedRegistry, lmdbRegistry(store));
  if (opts.resultsDir) {
    mkdirSync(opts.resultsDir, { recursive: true });
    writeFileSync(join(opts.resultsDir, 'calibration.json'), `${JSON.stringify({ name: 'calibration', recorded_at: now.toISOString(), ...report }, null, 2)}\n`);
  }
  return { table, entry, report };
}
