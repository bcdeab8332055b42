// The earlier sales of the same parcel as evidence on a sale's condition: a house keeps its condition between
// renovations, so the residuals of its earlier sales in the same "condition epoch" (no renovation resale between them,
// within condition_inference.persist_days) say which class it is in, independently of this sale's own noise. Their
// class log-likelihoods are added to the sale's own (sales treated as independent given the class). Earlier only: a
// comp's label must not depend on sales after it (the backtest values each sale from what was known before it).
import { CONDITION_INFERENCE } from '../../registry/groups/condition.js';
import { classLogLik, N_CLASSES, type Mixture } from './mixture.js';
import type { ConditionInput } from './types.js';

/**
 * Per row (n × N_CLASSES, zero for rows without other evidence): the summed class log-likelihoods of the earlier
 * `rows` of the same parcel in the same epoch (a renovation resale leg in `sellLegs` starts a new one) within the window.
 */
export function parcelEvidence(x: ConditionInput, m: Mixture, rows: readonly number[], resid: Float64Array, cost: Float64Array, sellLegs: ReadonlySet<number>): Float64Array {
  const out = new Float64Array(x.length * N_CLASSES);
  const order = [...rows].sort((a, b) => x.parcelIdx[a] - x.parcelIdx[b] || x.saleDay[a] - x.saleDay[b] || a - b);
  const window = CONDITION_INFERENCE.v.persist_days;
  for (let s = 0; s < order.length; ) {
    let e = s + 1;
    while (e < order.length && x.parcelIdx[order[e]] === x.parcelIdx[order[s]]) e++;
    if (e - s > 1) addGroup(x, m, order.slice(s, e), resid, cost, sellLegs, window, out);
    s = e;
  }
  return out;
}

function addGroup(x: ConditionInput, m: Mixture, g: number[], resid: Float64Array, cost: Float64Array, sellLegs: ReadonlySet<number>, window: number, out: Float64Array): void {
  const epoch = new Int32Array(g.length);
  for (let a = 1; a < g.length; a++) epoch[a] = epoch[a - 1] + (sellLegs.has(g[a]) ? 1 : 0);
  const ll = g.map((i) => Array.from({ length: N_CLASSES }, (_, k) => classLogLik(m, resid[i], cost[i], k)));
  for (let a = 0; a < g.length; a++) {
    for (let b = 0; b < a; b++) {
      if (epoch[a] !== epoch[b] || x.saleDay[g[b]] >= x.saleDay[g[a]] || x.saleDay[g[a]] - x.saleDay[g[b]] > window) continue;
      for (let k = 0; k < N_CLASSES; k++) out[g[a] * N_CLASSES + k] += ll[b][k];
    }
  }
}
