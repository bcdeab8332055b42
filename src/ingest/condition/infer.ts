// Condition of every sale, with a probability and a source, from what a real export has. Precedence (first wins):
//   feed        a non-blank condition on the row (synthetic sale_condition, Lake CONDITION): probability 1
//   year_built  char_yrblt within ingest.new_build_max_age_years of the sale → new: probability 1 (a rule)
//   resale_leg  a same-PIN renovation pair (resale-legs.ts): later leg renovated, earlier leg distressed or dated
//   hedonic     the sale's cross-fitted residual under the three-class mixture (flags / hedonic: see below)
//   flags       no residual (not an arms-length sale, or too few sales for the mixture) but CCAO flags are known: the
//               flags' class (FLAG_CLASS), at the share of that class the mixture found among sales with the same flags
//   unknown     nothing to go on (probability NaN)
// A hedonic-position label is `flags` when the sale has a flag set (the flag group's prior moved it), else `hedonic`.
//
// Selection bias: a sale called renovated because it sold high would carry its own positive noise into every ARV it
// is a comp for. The residual is cross-fitted (the sale is not in its expectation) and the renovated posterior cut is
// anchored on the renovation resale legs (renovated-cut.ts); its ARV bias is measured (README).
import { CONDITION_INFERENCE } from '../../registry/groups/condition.js';
import { CONDITION_CODE, CONDITION_SOURCE_CODE } from '../../store/columns.js';
import { armsLengthMask, type SalesColumns } from '../../store/sales-columns.js';
import { UNKNOWN_U8 } from '../loaders/ccao-chars.js';
import { CONDITION_DERIVE } from '../loaders/ccao-sales.js';
import { isNewBuild } from './design.js';
import { fitMixture, N_CLASSES, posteriorWith, type Mixture } from './mixture.js';
import { parcelEvidence } from './parcel-evidence.js';
import { resalePairs } from './resale-legs.js';
import { renovatedCut } from './renovated-cut.js';
import { crossFitResiduals } from './residuals.js';
import { median } from '../../reference/stats.js';
import type { ConditionEstimate, ConditionInput } from './types.js';

/** Flag groups of the mixture's class weights. */
const FLAG_GROUP = { none_known: 0, none_set: 1, renovation: 2, below_average: 3, above_average: 4 } as const;
const N_FLAG_GROUPS = 5;
/** CCAO codes (vars_dict.csv): char_renovation 1 Yes; char_repair_cnd 1 Above Average, 3 Below Average. */
const RENOVATION_YES = 1, REPAIR_ABOVE = 1, REPAIR_BELOW = 3;
const CLASS_CODE = [CONDITION_CODE.distressed, CONDITION_CODE.dated, CONDITION_CODE.renovated];
const RENOVATED = 2;

function flagGroup(x: ConditionInput, i: number): number {
  if (x.renovation[i] === RENOVATION_YES) return FLAG_GROUP.renovation;
  if (x.repairCnd[i] === REPAIR_BELOW) return FLAG_GROUP.below_average;
  if (x.repairCnd[i] === REPAIR_ABOVE) return FLAG_GROUP.above_average;
  return x.renovation[i] === UNKNOWN_U8 && x.repairCnd[i] === UNKNOWN_U8 ? FLAG_GROUP.none_known : FLAG_GROUP.none_set;
}

/**
 * The class the flags point to when there is no residual to weigh them with (not an arms-length sale, or too few
 * sales for the mixture): renovated for renovation or above-average repair, distressed for below average, dated when
 * the flags are known and none is set (the characteristics rule of ingest/condition.ts, kept for thin corpora).
 */
const FLAG_CLASS: Record<number, number> = { [FLAG_GROUP.renovation]: 2, [FLAG_GROUP.above_average]: 2, [FLAG_GROUP.below_average]: 0, [FLAG_GROUP.none_set]: 1 };

/** `renovatedCut`: the renovated posterior cut used (renovated-cut.ts), anchored on `cutAnchoredOn` resale legs (0: fixed). */
export type ConditionSummary = { scored: number; mixture: Mixture | null; renovatedCut: number; cutAnchoredOn: number; resalePairs: number; bySource: Record<string, number> };

/** Arms-length mask of the joined rows: the comp screen reads only price, deed, parcel count, parcel and day. */
function armsOf(x: ConditionInput): Uint8Array {
  return armsLengthMask(x as unknown as SalesColumns);
}

export function inferConditions(x: ConditionInput): { estimate: ConditionEstimate; summary: ConditionSummary } {
  const n = x.length;
  const est: ConditionEstimate = { condition: new Uint8Array(n).fill(CONDITION_CODE.unknown), prob: new Float32Array(n).fill(NaN), source: new Uint8Array(n).fill(CONDITION_SOURCE_CODE.unknown) };
  const arms = armsOf(x);
  const use = new Uint8Array(n);
  for (let i = 0; i < n; i++) use[i] = arms[i] === 1 && x.priceUsd[i] > 0 ? 1 : 0;
  const { resid, expected } = crossFitResiduals(x, use);
  const groups = new Uint8Array(n);
  for (let i = 0; i < n; i++) groups[i] = flagGroup(x, i);
  const mixRows: number[] = [];
  for (let i = 0; i < n; i++) if (!Number.isNaN(resid[i]) && !isNewBuild(x, i)) mixRows.push(i);
  const cost = repairCostScale(x, expected, mixRows);
  // EM on an even stride of the rows (it dominated the ingest's time); posteriors are then computed for every row.
  const stride = Math.max(1, Math.ceil(mixRows.length / CONDITION_INFERENCE.v.mixture_fit_max_rows));
  const fitRows = mixRows.filter((_, k) => k % stride === 0);
  const pairs = resalePairs(x, resid);
  const sellPairs = pairs.filter((p) => x.condition[p.sell] === CONDITION_DERIVE && !isNewBuild(x, p.sell));
  const sellLegs = sellPairs.map((p) => p.sell);
  // The resale legs hold the renovated class's level (mixture.ts: the residuals alone do not place it).
  const anchor = { resid: Float64Array.from(sellLegs, (i) => resid[i]), cost: Float64Array.from(sellLegs, (i) => cost[i]), weight: Float64Array.from(sellPairs, (p) => p.prob) };
  const mixture = fitMixture(Float64Array.from(fitRows, (i) => resid[i]), Float64Array.from(fitRows, (i) => cost[i]), Uint8Array.from(fitRows, (i) => groups[i]), N_FLAG_GROUPS, anchor);
  // Class posteriors of every mixture row: its own residual, its flags' prior and its parcel's earlier sales.
  const post = new Float64Array(n * N_CLASSES).fill(NaN);
  if (mixture !== null) {
    const extra = parcelEvidence(x, mixture, mixRows, resid, cost, new Set(pairs.map((p) => p.sell)));
    for (const i of mixRows) posteriorWith(mixture, resid[i], cost[i], groups[i], extra, i * N_CLASSES, post);
  }
  const pRenovated = Float64Array.from({ length: n }, (_, i) => post[i * N_CLASSES + RENOVATED]);
  const { cut, anchoredOn } = mixture === null ? { cut: 1, anchoredOn: 0 } : renovatedCut(mixture, { rows: mixRows, resid, cost, pRenovated, sellLegs, legs: anchor });
  const set = (i: number, cond: number, prob: number, source: number): void => { est.condition[i] = cond; est.prob[i] = prob; est.source[i] = source; };

  for (let i = 0; i < n; i++) {
    if (x.condition[i] !== CONDITION_DERIVE) set(i, x.condition[i], x.condition[i] === CONDITION_CODE.unknown ? NaN : 1, x.condition[i] === CONDITION_CODE.unknown ? CONDITION_SOURCE_CODE.unknown : CONDITION_SOURCE_CODE.feed);
    else if (isNewBuild(x, i)) set(i, CONDITION_CODE.new, 1, CONDITION_SOURCE_CODE.year_built);
    else if (!Number.isNaN(post[i * N_CLASSES])) {
      const p = (k: number): number => post[i * N_CLASSES + k];
      const k = p(RENOVATED) >= cut ? RENOVATED : p(0) > p(1) ? 0 : 1;
      set(i, CLASS_CODE[k], p(k), groups[i] >= FLAG_GROUP.renovation ? CONDITION_SOURCE_CODE.flags : CONDITION_SOURCE_CODE.hedonic);
    } else if (FLAG_CLASS[groups[i]] !== undefined) {
      const k = FLAG_CLASS[groups[i]];
      set(i, CLASS_CODE[k], mixture === null ? NaN : mixture.weight[groups[i]][k], CONDITION_SOURCE_CODE.flags);
    }
  }

  for (const p of pairs) {
    if (x.condition[p.sell] === CONDITION_DERIVE && !isNewBuild(x, p.sell)) set(p.sell, CONDITION_CODE.renovated, p.prob, CONDITION_SOURCE_CODE.resale_leg);
    if (x.condition[p.buy] === CONDITION_DERIVE && !isNewBuild(x, p.buy)) {
      // The purchase leg needed work: distressed or dated by its own position, given it was not renovated.
      let k = 0, pk = 1;
      if (!Number.isNaN(post[p.buy * N_CLASSES])) {
        const [p0, p1] = [post[p.buy * N_CLASSES], post[p.buy * N_CLASSES + 1]];
        k = p0 >= p1 ? 0 : 1;
        pk = (k === 0 ? p0 : p1) / (p0 + p1);
      }
      set(p.buy, CLASS_CODE[k], p.prob * pk, CONDITION_SOURCE_CODE.resale_leg);
    }
  }
  return { estimate: est, summary: { scored: mixRows.length, mixture, renovatedCut: cut, cutAnchoredOn: anchoredOn, resalePairs: pairs.length, bySource: countBySource(est.source) } };
}

/**
 * Per row, living area per $1,000 of expected price, centred on the median of the mixture's rows (0 when the area or
 * the expectation is unknown): repair work is priced per square foot, so this scales how far a house that needs work
 * sits below a renovated one in log price.
 */
function repairCostScale(x: ConditionInput, expected: Float64Array, rows: readonly number[]): Float64Array {
  const raw = new Float64Array(x.length).fill(NaN);
  for (let i = 0; i < x.length; i++) if (x.sqft[i] > 0 && Number.isFinite(expected[i])) raw[i] = (1000 * x.sqft[i]) / Math.exp(expected[i]);
  const known = rows.map((i) => raw[i]).filter((v) => !Number.isNaN(v));
  const center = known.length > 0 ? median(known) : 0;
  return raw.map((v) => (Number.isNaN(v) ? 0 : v - center));
}

function countBySource(source: Uint8Array): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of Object.keys(CONDITION_SOURCE_CODE)) out[name] = 0;
  const nameOf = new Map(Object.entries(CONDITION_SOURCE_CODE).map(([name, code]) => [code as number, name]));
  for (const s of source) out[nameOf.get(s) as string]++;
  return out;
}
