// The all-sales section of the backtest report (calibrate --report and `avm backtest --raw`): which value each sale is
// scored against (true condition from the ground truth when the corpus has one, else the snapshot's condition), the
// model's accuracy rows and the naive and oracle baselines on the same sales.
import { CONDITION_CODE } from '../../store/columns.js';
import { isoOfDay } from '../../store/days.js';
import { armsLengthMask, type SalesColumns } from '../../store/sales-columns.js';
import type { CalibrationTable } from '../decide/segment.js';
import { kindOfCondition, type SaleKind, type ScoredSale } from './all-sales.js';
import { accuracyRows, asIsBands, servedOf, type AccuracyKind, type AccuracyRow } from './accuracy.js';
import { mdape } from './metrics.js';
import { baselineRows, type BaselineRow } from './baselines.js';
import { naiveCompsEstimator } from './naive-comps.js';
import { readSalesTruth, saleKeyOf, type SaleTruth } from './oracle.js';

export type KindSource = 'truth' | 'snapshot_condition';

export type AllSalesSection = {
  /** Where a sale's kind (arv: renovated/new; as_is: the rest, unknown included) came from. */
  kindSource: KindSource;
  /** Sales valued from `start` (null: from the first sale) to `end`; intervals and shares over sales from `split` on. */
  window: { start: string | null; split: string; end: string };
  rows: AccuracyRow[];
  /** Model and naive MdAPE on the same sales: those both valued, per kind over all segments. */
  vsNaive: Array<{ kind: AccuracyKind; n: number; modelMdape: number | null; naiveMdape: number | null }>;
  naiveElapsedMs: number;
};

export type Kinds = { kindOf: (row: number) => SaleKind; source: KindSource; truthOfRow: (row: number) => SaleTruth | undefined };

/**
 * Kinds of the sales: by the true condition when `dataDir` has ground truth (a sale the truth file does not know falls
 * back to its snapshot condition), else by the snapshot's `condition` column.
 */
export async function saleKinds(sales: SalesColumns, dataDir: string | null): Promise<Kinds> {
  return saleKindsFrom(sales, dataDir === null ? null : await readSalesTruth(dataDir, sales));
}

/** saleKinds over ground truth already read (oracle.ts readSalesTruth), or null for none. */
export function saleKindsFrom(sales: SalesColumns, truth: ReadonlyMap<string, SaleTruth> | null): Kinds {
  const truthOfRow = (row: number): SaleTruth | undefined => truth?.get(saleKeyOf(sales, row));
  const kindOf = (row: number): SaleKind => {
    const t = truthOfRow(row);
    return kindOfCondition(t !== undefined && t.condition !== CONDITION_CODE.unknown ? t.condition : sales.condition[row]);
  };
  return { kindOf, source: truth ? 'truth' : 'snapshot_condition', truthOfRow };
}

/** MdAPE of the model and of the naive estimator over the sales both valued, per kind (all segments pooled). */
function pairedWithNaive(scored: readonly ScoredSale[], naiveOf: ReadonlyMap<number, number | null>): AllSalesSection['vsNaive'] {
  return (['arv', 'as_is', 'overall'] as const).map((kind) => {
    const both = scored.filter((s) => (kind === 'overall' || s.kind === kind) && s.estimateUsd !== null && (naiveOf.get(s.row) ?? null) !== null);
    const price = both.map((s) => s.priceUsd);
    return {
      kind, n: both.length,
      modelMdape: both.length ? mdape(both.map((s) => s.estimateUsd as number), price) : null,
      naiveMdape: both.length ? mdape(both.map((s) => naiveOf.get(s.row) as number), price) : null,
    };
  });
}

/** Median sale day of the scored sales: the split when no ARV calibration table exists to give one. */
function medianDay(scored: readonly ScoredSale[]): number {
  const days = scored.map((s) => s.saleDay).sort((a, b) => a - b);
  return days.length ? days[Math.floor(days.length / 2)] : 0;
}

/** The model's rows and both baselines over `scored`; intervals from `table` (ARV) and the report-only as-is bands. */
export function allSalesSection(
  sales: SalesColumns, scored: readonly ScoredSale[], table: CalibrationTable | null, kinds: Kinds, w: { startDay: number; endDay: number },
): { section: AllSalesSection; baselines: BaselineRow[] } {
  const splitDay = table && table.holdout.splitDay > 0 ? table.holdout.splitDay : medianDay(scored);
  const bands = asIsBands(scored.filter((s) => s.saleDay < splitDay));
  const rows = accuracyRows(scored, splitDay, (s) => servedOf(s, table, bands));
  const t0 = performance.now();
  const naive = naiveCompsEstimator(sales, armsLengthMask(sales));
  const naiveOf = new Map(scored.map((s) => [s.row, naive.estimate(s.row)]));
  const naiveElapsedMs = Math.round(performance.now() - t0);
  const naiveRows = baselineRows('naive', scored, (s) => naiveOf.get(s.row) ?? null);
  const oracleRows = kinds.source === 'truth' ? baselineRows('oracle', scored, (s) => kinds.truthOfRow(s.row)?.trueValue ?? null) : [];
  const start = Number.isFinite(w.startDay) ? isoOfDay(w.startDay) : null;
  return {
    section: { kindSource: kinds.source, window: { start, split: isoOfDay(splitDay), end: isoOfDay(w.endDay - 1) }, rows, vsNaive: pairedWithNaive(scored, naiveOf), naiveElapsedMs },
    baselines: [...naiveRows, ...oracleRows],
  };
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null | undefined, d: number): string => (x === null || x === undefined ? '—' : x.toFixed(d));

/** The markdown lines of the all-sales section: each (kind, group) row with the naive and oracle MdAPE beside it. */
export function allSalesMarkdown(s: AllSalesSection, baselines: readonly BaselineRow[]): string[] {
  const base = (name: string, kind: string, group: string) => baselines.find((b) => b.name === name && b.kind === kind && b.group === group);
  return [
    `Every arms-length sale ${s.window.start ?? 'from the first'} → ${s.window.end} (kind by ${s.kindSource}; coverage and shares from ${s.window.split}):`,
    '| kind/segment | n | refused | MdAPE | naive MdAPE | oracle MdAPE | PPE10 | PPE20 | COD | PRD | PRB | cov80 | width80 | point | range | suppressed |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...s.rows.map((r) => `| ${r.kind}/${r.group} | ${r.n} | ${r.refused} | ${pct(r.mdape)} | ${pct(base('naive', r.kind, r.group)?.mdape)} | ${pct(base('oracle', r.kind, r.group)?.mdape)} | ${pct(r.ppe10)} | ${pct(r.ppe20)} | ${num(r.cod, 2)} | ${num(r.prd, 3)} | ${num(r.prb, 3)} | ${pct(r.coverage80)} | ${num(r.meanWidth80, 3)} | ${pct(r.pointShare)} | ${pct(r.rangeShare)} | ${pct(r.suppressedShare)} |`),
    `Same sales (both valued): ${s.vsNaive.map((v) => `${v.kind} n ${v.n}, model ${pct(v.modelMdape)} vs naive ${pct(v.naiveMdape)}`).join('; ')}`,
  ];
}
