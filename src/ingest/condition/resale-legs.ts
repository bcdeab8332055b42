// Same-PIN resale legs: a sale soon after a cheap purchase of the same parcel at a large time- and hedonic-adjusted
// uplift is a renovation resale (DOMAIN.md: "Renovation shows as a same-PIN pair"). The uplift is the difference of
// the two legs' cross-fitted residuals (same parcel, same fold, same model: the location and the facts cancel, the
// county-quarter levels adjust for time). Each sale is in at most one pair.
import { CONDITION_INFERENCE } from '../../registry/groups/condition.js';
import { meanSd, median, normalPdf } from '../../reference/stats.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import type { ConditionInput } from './types.js';

export type ResalePair = { buy: number; sell: number; upliftLog: number; prob: number };


/** Consecutive scored sales of the same parcel within the resale window: [earlier, later, uplift]. */
function consecutivePairs(x: ConditionInput, resid: Float64Array): Array<[number, number, number]> {
  const cfg = CONDITION_INFERENCE.v;
  const rows: number[] = [];
  for (let i = 0; i < x.length; i++) if (!Number.isNaN(resid[i])) rows.push(i);
  rows.sort((a, b) => x.parcelIdx[a] - x.parcelIdx[b] || x.saleDay[a] - x.saleDay[b] || a - b);
  const out: Array<[number, number, number]> = [];
  for (let k = 1; k < rows.length; k++) {
    const a = rows[k - 1], b = rows[k];
    const gap = x.saleDay[b] - x.saleDay[a];
    if (x.parcelIdx[a] !== x.parcelIdx[b] || gap < cfg.resale_min_gap_days || gap > cfg.resale_max_gap_days) continue;
    out.push([a, b, resid[b] - resid[a]]);
  }
  return out;
}

/**
 * Renovation pairs among the scored sales (`resid` NaN = not scored). The probability of each is the posterior of a
 * two-group model over every consecutive pair's uplift: unchanged houses around the median uplift with the pairs'
 * robust spread (MAD), renovation pairs with the mean and spread of the pairs the rule picks, weighted by their share.
 */
export function resalePairs(x: ConditionInput, resid: Float64Array): ResalePair[] {
  const cfg = CONDITION_INFERENCE.v;
  const all = consecutivePairs(x, resid);
  if (all.length === 0) return [];
  const ups = all.map((p) => p[2]);
  const center = median(ups);
  const sd0 = Math.max(1e-3, COMP_POLICY.v.mad_scale * median(ups.map((u) => Math.abs(u - center))));
  const picked = all.filter(([a, , u]) => u >= cfg.resale_min_uplift_log && resid[a] <= cfg.resale_buy_max_residual_log);
  if (picked.length === 0) return [];
  const { mean: m1, sd } = meanSd(picked.map((p) => p[2]));
  const sd1 = picked.length < 2 ? sd0 : Math.max(sd0, sd);
  const share = picked.length / all.length;
  const used = new Set<number>();
  const out: ResalePair[] = [];
  for (const [buy, sell, u] of picked) {
    if (used.has(buy) || used.has(sell)) continue;
    used.add(buy).add(sell);
    const l1 = share * normalPdf(u, m1, sd1), l0 = (1 - share) * normalPdf(u, center, sd0);
    out.push({ buy, sell, upliftLog: u, prob: l1 / (l1 + l0) });
  }
  return out;
}
