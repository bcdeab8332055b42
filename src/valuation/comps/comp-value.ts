// The Tier-1 value of a comp set: the weighted median of the selected comps' adjusted prices, each weighted by
// 1 / (distance + offset)^power (tier1_valuation.value_weight_offset_mi, value_weight_power). The nearest sales carry
// most of what the characteristics do not say about a block (micro-location); a median, not a mean, so one odd sale
// cannot pull the value. With equal weights (power 0) it is exactly the plain median of comp policy v2 (the mean of
// the two middle prices for an even count). Serving, bulk scoring, listings and the backtest all take the value here
// (tier1.ts evidenceOf).
import type { AcceptedComp } from '../../kernel/types.js';
import { TIER1 } from '../../registry/groups/tier1.js';

/** Weight of a comp at `distMi` miles in the Tier-1 value. */
export function compValueWeight(distMi: number): number {
  return 1 / (Math.max(0, distMi) + TIER1.v.value_weight_offset_mi) ** TIER1.v.value_weight_power;
}

/** Up to this many values are ordered by insertion (a comp set holds at most max_comps). */
const INSERTION_MAX = 32;

/**
 * Indices of `values` by value, ties by index: `sort((a, b) => values[a] - values[b] || a - b)` over the indices. A
 * short list without NaN is ordered by insertion (stable, so ties keep index order: the same order), without the
 * comparator calls and the index array of the general sort.
 */
function ascendingOrder(values: readonly number[]): ArrayLike<number> {
  const n = values.length;
  if (n > INSERTION_MAX || values.some((v) => v !== v)) return values.map((_, i) => i).sort((a, b) => values[a] - values[b] || a - b);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let j = i;
    for (; j > 0 && values[order[j - 1]] > values[i]; j--) order[j] = order[j - 1];
    order[j] = i;
  }
  return order;
}

/**
 * Weighted median of `values` (weights > 0): the smallest value whose cumulative weight reaches half the total; when
 * it reaches exactly half (within rounding), the mean of that value and the next. Null for an empty set.
 */
export function weightedMedian(values: readonly number[], weights: readonly number[]): number | null {
  if (values.length === 0) return null;
  const order = ascendingOrder(values);
  let total = 0;
  for (const w of weights) total += w;
  const half = total / 2;
  const tol = total * 1e-12;
  let acc = 0;
  for (let k = 0; k < order.length; k++) {
    acc += weights[order[k]];
    if (acc >= half - tol) {
      const exact = Math.abs(acc - half) <= tol && k + 1 < order.length;
      return exact ? (values[order[k]] + values[order[k + 1]]) / 2 : values[order[k]];
    }
  }
  return values[order[order.length - 1]];
}

/** The Tier-1 value of the selected comps (null when none). */
export function compSetValueUsd(accepted: readonly Pick<AcceptedComp, 'adjustedPrice' | 'distMi'>[]): number | null {
  return weightedMedian(accepted.map((c) => c.adjustedPrice), accepted.map((c) => compValueWeight(c.distMi)));
}
