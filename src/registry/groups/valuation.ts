// Display-ladder and ratio-study constants: money rounding, interval coverage, area-context caps, IAAO gates.
// Comp counts, the dispersion gate and the ladder penalty live in comp-policy.ts and are not repeated here.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md';

export const VALUATION_DISPLAY = defineGroup({
  name: 'valuation_display',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    money_round_threshold_usd: c(100_000, 'USD', 'at or above this, displayed values round to the large step; below it to the small step', 'house rule: screening numbers are about ±20% (spec standing rules), so more digits imply false precision'),
    money_round_step_large_usd: c(1_000, 'USD', '$1,000 is 1% of a $100k value, a tenth of the ±10% PPE band', 'house rule derived from the spec ±20% screening precision and the 10% confidence_p10 band'),
    money_round_step_small_usd: c(100, 'USD', 'below $100k a $1,000 step would exceed 1% of the value', 'house rule, same reasoning as money_round_step_large_usd'),
    interval_coverage: c(0.8, 'probability', 'served intervals are split-conformal 80% intervals [q80_lo x value, q80_hi x value]', `${SPEC} ARV low/high`),
    model_disagreement_frac: c(0.12, 'fraction of mean', 'abs(comp - model)/mean above this widens the interval and raises approaches_disagree', `${SPEC} ARV interval.widened_by_model_disagreement`),
    area_context_confidence_max: c(55, 'confidence points', 'area-context confidence is at most 55', `${SPEC} Area context; Limits`),
    area_context_deal_score_cap: c(65, 'score points', 'rows scored on area context carry deal_score at most 65', `${SPEC} Area context; Limits`),
    ppe_band_frac: c(0.1, 'fraction of price', 'confidence_p10 = P(abs(error) <= 10%) x 100; also the band of the legacy confidence heuristic', `${SPEC} ARV confidence_p10; DOMAIN.md PPE10`),
  },
});

const IAAO = 'IAAO Standard on Ratio Studies (2013) via DOMAIN.md; ccao-data/assesspy metrics.py';

export const RATIO_STUDY = defineGroup({
  name: 'ratio_study',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    iqr_trim_mult: c(3, 'IQRs', 'ratios beyond 3 x IQR outside the quartiles are trimmed before COD/PRD/PRB', `${IAAO} Appendix B.1`),
    min_group_n: c(30, 'sales', 'a ratio-study group is reported only with at least 30 sales; smaller groups are flagged', 'DOMAIN.md Measuring a valuation model'),
    cod_good_range: c([5, 15], 'COD points', 'acceptable COD for residential property', IAAO),
    prd_good_range: c([0.98, 1.03], 'ratio', 'acceptable PRD', IAAO),
    prb_good_range: c([-0.05, 0.05], 'ratio per doubling of value', 'acceptable PRB', IAAO),
  },
});
