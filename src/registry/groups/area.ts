// Area context (nbhd_premium) constants: the area searched, lookback, minimum sales and flip-pair premium shrinkage.
import { c, defineGroup } from '../define.js';

export const AREA_CONTEXT = defineGroup({
  name: 'area_context',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    neighbor_radius_mi: c(1.5, 'miles', 'when the tract is thin, renovated sales within 1.5 mi of the subject are used', 'issue 5 brief (tract or its neighbors within ~1.5 mi)'),
    lookback_days: c(730, 'days', 'area sales within the last two years; area context is a fallback, so it trades recency for sample size', 'house rule: twice the comp ladder step-3 window (service-spec Comp policy)'),
    min_sales: c(5, 'sales', 'at least 5 renovated sales for a direct area $/sf median (same count the spec asks for a public point)', 'service-spec.md Comp policy counts (5 for a public point)'),
    premium_shrink_k: c(10, 'pairs', 'area flip premium shrunk toward the county premium with weight n/(n+10)', 'house rule: empirical-Bayes style n/(n+k) with k = the pair count at which own evidence weighs as much as the county'),
  },
});
