// The oracle lines of the backtest report: the synthetic generator's true value against the sale price, read from
// <dataDir>/truth/sales_truth.csv. The reader of its values and conditions (the rent backtest reads its rents), only for report lines (oracle MdAPE and
// coverage, the true condition that picks which value a sale is scored against in the all-sales report, the condition
// classifier's figures); a report run reads it once (readSalesTruth). Nothing it returns reaches the calibration table,
// the registry or serving.
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { GROUND_TRUTH_DIR, GROUND_TRUTH_FILE } from '../../ingest/layouts.js';
import { parseConditionWord } from '../../ingest/condition.js';
import { CONDITION_CODE } from '../../store/columns.js';
import { isoOfDay } from '../../store/days.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';
import { splitConformalQuantiles } from './conformal.js';
import type { BacktestRecord } from './backtest.js';

/** Key of a sale in both the snapshot and the truth file. */
export const saleKey = (pin: string, isoDate: string, priceUsd: number): string => `${pin}|${isoDate}|${Math.round(priceUsd)}`;

/** Key of snapshot row `row`. */
export const saleKeyOf = (sales: SalesColumns, row: number): string => saleKey(sales.pin(row), isoOfDay(sales.saleDay[row]), sales.priceUsd[row]);

/** Ground truth of every sale of the snapshot by saleKey; null when the data dir has no truth file (a real corpus). */
export async function readSalesTruth(dataDir: string, sales: SalesColumns): Promise<Map<string, SaleTruth> | null> {
  const wanted = new Set<string>();
  for (let i = 0; i < sales.length; i++) wanted.add(saleKeyOf(sales, i));
  return readOracleTruth(dataDir, wanted);
}

/** Ground truth by snapshot row (undefined: the truth file has no such sale); null when the data dir has no truth file. */
export async function readTruthByRow(dataDir: string, sales: SalesColumns): Promise<Array<SaleTruth | undefined> | null> {
  const truth = await readSalesTruth(dataDir, sales);
  return truth === null ? null : Array.from({ length: sales.length }, (_, i) => truth.get(saleKeyOf(sales, i)));
}

/** A sale's ground truth as the report uses it: its true value and its true condition (CONDITION_CODE; unknown if absent). */
export type SaleTruth = { trueValue: number; condition: number; /** Value in renovated condition (new stays new); NaN when the file has no true_arv. */ trueArv: number };

/** Ground truth by saleKey for the wanted keys; null when the data dir has no truth file (a real corpus). */
export async function readOracleTruth(dataDir: string, wanted: ReadonlySet<string>): Promise<Map<string, SaleTruth> | null> {
  const file = join(dataDir, GROUND_TRUTH_DIR, GROUND_TRUTH_FILE);
  if (!existsSync(file)) return null;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  const out = new Map<string, SaleTruth>();
  let col: Record<string, number> | null = null;
  for await (const line of lines) {
    const f = line.split(',');
    if (col === null) {
      col = Object.fromEntries(f.map((name, i) => [name.trim(), i]));
      continue;
    }
    const key = saleKey(f[col.pin], f[col.sale_date], Number(f[col.sale_price]));
    if (!wanted.has(key)) continue;
    const cond = col.condition === undefined ? null : parseConditionWord(f[col.condition] ?? '');
    out.set(key, { trueValue: Number(f[col.true_value]), condition: cond ?? CONDITION_CODE.unknown, trueArv: col.true_arv === undefined ? NaN : Number(f[col.true_arv]) });
  }
  return out;
}

/** The oracle's coverage of one group: the segment's split-conformal procedure with the true value as the estimate. */
export type OracleCoverage = { coverage80: number | null; nCalibration: number; nTest: number };

/** A valued record (Tier 1 served it) paired with its true value. */
type Truthful = { priceUsd: number; trueUsd: number };

/** The valued records that the truth file knows (truthOf undefined: no such sale in it). */
function truthfulOf(rs: readonly BacktestRecord[], truthOf: (r: BacktestRecord) => number | undefined): Truthful[] {
  const out: Truthful[] = [];
  for (const r of rs) {
    if (r.estimateUsd === null) continue;
    const t = truthOf(r);
    if (t !== undefined && t > 0) out.push({ priceUsd: r.priceUsd, trueUsd: t });
  }
  return out;
}

/**
 * What the split itself allows (report only): the segment-row split-conformal ratio quantiles (r = price / estimate,
 * calibration_min_n, DOMAIN.md ranks; no Mondrian classes) fitted on the calibration half and measured on the test
 * half, with the generator's true value in place of the estimate — a model that knew every true value. The halves'
 * valued sales are the model's (same suppression), so what separates this from nominal is the sale noise alone
 * (price = true × exp(σ·N(0,1))): when even the oracle misses the band, the segment's two halves differ in that
 * noise, and a more accurate estimate cannot be what closes the gap.
 */
export function oracleCoverage(cal: readonly BacktestRecord[], test: readonly BacktestRecord[], truthOf: (r: BacktestRecord) => number | undefined): OracleCoverage {
  const c = truthfulOf(cal, truthOf);
  const t = truthfulOf(test, truthOf);
  if (c.length < TIER1.v.calibration_min_n || t.length === 0) return { coverage80: null, nCalibration: c.length, nTest: t.length };
  const q = splitConformalQuantiles(c.map((x) => x.trueUsd), c.map((x) => x.priceUsd), VALUATION_DISPLAY.v.interval_coverage);
  const covered = t.filter((x) => x.priceUsd >= q.qLo * x.trueUsd && x.priceUsd <= q.qHi * x.trueUsd).length;
  return { coverage80: covered / t.length, nCalibration: c.length, nTest: t.length };
}

/** Overall: test sales covered by the oracle bands of the segments that have one, over the sales those bands cover. */
export function pooledOracleCoverage(parts: readonly OracleCoverage[]): number | null {
  const withBand = parts.filter((p) => p.coverage80 !== null);
  const n = withBand.reduce((acc, p) => acc + p.nTest, 0);
  return n > 0 ? withBand.reduce((acc, p) => acc + (p.coverage80 as number) * p.nTest, 0) / n : null;
}
