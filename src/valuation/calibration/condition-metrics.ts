// How well the ingest's condition estimate (src/ingest/condition/) matches the generator's true condition: precision,
// recall and F1 of "renovated or new" against the rest, the confusion matrix, and per source the count and share
// correct. Report only: the ground truth comes from oracle.ts (the only reader of <dataDir>/truth/sales_truth.csv),
// and nothing it returns reaches the calibration table, the registry or serving. Scored over arms-length sales.
import { CONDITION_CODE, CONDITION_SOURCE_CODE } from '../../store/columns.js';
import { armsLengthMask, type SalesColumns } from '../../store/sales-columns.js';
import { readSalesTruth, saleKeyOf, type SaleTruth } from './oracle.js';

const CLASSES = ['distressed', 'dated', 'renovated', 'new', 'unknown'] as const;
type ClassName = (typeof CLASSES)[number];

export type ConditionClassifierReport = {
  /** Arms-length sales of the snapshot found in the truth file. */
  n: number;
  /** "renovated or new" (the ARV stratum) against distressed/dated/unknown. */
  arvStratum: { precision: number | null; recall: number | null; f1: number | null; truePositives: number; predicted: number; actual: number };
  /** confusion[true][estimated]: counts. */
  confusion: Record<ClassName, Record<ClassName, number>>;
  /** Per source: sales and the share whose estimated class is the true one. */
  bySource: Record<string, { n: number; accuracy: number | null }>;
};

const nameOfCode = (code: number): ClassName => (CLASSES[code] !== undefined && code <= CONDITION_CODE.new ? CLASSES[code] : 'unknown');
const SOURCE_NAMES = new Map(Object.entries(CONDITION_SOURCE_CODE).map(([n, c]) => [c as number, n]));

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** The classifier's figures against the truth file; null on a corpus without one. */
export async function conditionClassifierMetrics(dataDir: string, sales: SalesColumns): Promise<ConditionClassifierReport | null> {
  return classifierMetricsOf(await readSalesTruth(dataDir, sales), sales);
}

/** The classifier's figures against ground truth already read (oracle.ts); null without one or without true conditions. */
export function classifierMetricsOf(truth: ReadonlyMap<string, SaleTruth> | null, sales: SalesColumns): ConditionClassifierReport | null {
  if (truth === null) return null;
  const arms = armsLengthMask(sales);
  const confusion = Object.fromEntries(CLASSES.map((t) => [t, Object.fromEntries(CLASSES.map((e) => [e, 0]))])) as ConditionClassifierReport['confusion'];
  const src: Record<string, { n: number; right: number }> = {};
  let n = 0, tp = 0, predicted = 0, actual = 0;
  for (let i = 0; i < sales.length; i++) {
    if (arms[i] !== 1) continue;
    const known = truth.get(saleKeyOf(sales, i));
    if (known === undefined || known.condition === CONDITION_CODE.unknown) continue;
    const t = nameOfCode(known.condition);
    const e = nameOfCode(sales.condition[i]);
    n++;
    confusion[t][e]++;
    const posT = t === 'renovated' || t === 'new', posE = e === 'renovated' || e === 'new';
    if (posT) actual++;
    if (posE) predicted++;
    if (posT && posE) tp++;
    const s = sales.conditionSource ? (SOURCE_NAMES.get(sales.conditionSource[i]) ?? 'unknown') : 'not_recorded';
    src[s] ??= { n: 0, right: 0 };
    src[s].n++;
    if (t === e) src[s].right++;
  }
  if (n === 0) return null;
  const precision = ratio(tp, predicted), recall = ratio(tp, actual);
  const f1 = precision !== null && recall !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : null;
  const bySource = Object.fromEntries(Object.entries(src).sort().map(([k, v]) => [k, { n: v.n, accuracy: ratio(v.right, v.n) }]));
  return { n, arvStratum: { precision, recall, f1, truePositives: tp, predicted, actual }, confusion, bySource };
}
