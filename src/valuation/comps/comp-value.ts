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

/**
 * Weighted median of `values` (weights > 0): the smallest value whose cumulative weight reaches half the total; when
 * it reaches exactly half (within rounding), the mean of that value and the next. Null for an empty set.
 */
export function weightedMedian(values: readonly number[], weights: readonly number[]): number | null {
  if (values.length === 0) return null;
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b] || a - b);
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
