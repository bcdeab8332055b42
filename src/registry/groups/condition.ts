// Condition inference at ingest (src/ingest/condition/): how a sale's condition is estimated when the feed does not
// carry it, as a real CCAO export never does.
import { c, defineGroup } from '../define.js';

const DESIGN = 'engineering choice, issue 14 item 2 (condition inferred rather than given)';

export const CONDITION_INFERENCE = defineGroup({
  name: 'condition_inference',
  version: '1.1.0',
  owner: 'data',
  entries: {
    crossfit_folds: c(5, 'folds', 'the hedonic expectation of a sale is fitted on the other folds (folds by parcel), so a sale, and its parcel\'s other sales, never explain themselves', DESIGN),
    backfit_iterations: c(6, 'iterations', 'alternations between the covariate coefficients and the shrunken tract effects; the residuals change by < 0.001 log after 4-5 on the synthetic corpus', DESIGN),
    tract_shrink_sales: c(8, 'sales', 'a tract effect is its mean residual x n / (n + 8): a tract with 8 sales keeps half its own level, so a thin tract does not fit its few sales exactly', DESIGN),
    area_cell_deg: c(0.04, 'degrees', 'an area is a grid cell of 0.04 degrees (about 2.8 mi north-south, 2 mi east-west) holding the tract\'s mean location: a thin tract borrows the level of the area around it instead of falling to the county\'s', DESIGN),
    area_shrink_sales: c(8, 'sales', 'an area effect is its mean residual x n / (n + 8), like a tract\'s', DESIGN),
    ridge: c(0.001, 'sum-of-squares units', 'added to the normal equations\' diagonal so an empty county-quarter cell leaves them solvable; negligible against hundreds of sales per cell', DESIGN),
    mixture_iterations: c(200, 'EM iterations', 'upper bound of the EM fit of the residual mixture (stops earlier at a log-likelihood gain below 1e-7 per sale)', DESIGN),
    mixture_fit_max_rows: c(50000, 'sales', 'the mixture is fitted on an even stride of at most this many residuals (a dozen parameters; 50k gives them to about 0.002 log) and then applied to every sale: EM over all 216k residuals of the default corpus took ~2.4 of the inference\'s ~3.2 s', 'measured, --cpu-prof of inferConditions on the default corpus'),
    mixture_init_starts: c([0.05, 0.4, 0.8, 0.02, 0.2, 0.6], 'quantiles of the residuals, in triples (distressed, dated, renovated), one triple per EM start', 'starting means of the three components, one EM run per triple, the fit of the highest log-likelihood kept (mixture.ts): a thin low tail, then the bulk split in two, once at its middle and once lower. The likelihood is nearly flat along the dated/renovated split even with the renovated level anchored on the resale legs: on generator 3.2.0 seeds 1/2/3 the kept start was the first / second / first, by 1.2 / 3.9 / 1.3 log-likelihood units over 50k residuals (renovated weight of sales without flags 0.43 / 0.47 / 0.42 kept, 0.40-0.48 for the other start; truth 0.46 of the scored sales)', 'measured, fitMixture on the default corpus residuals, seeds 1-3 (README, condition inferred rather than given)'),
    mixture_min_sd_log: c(0.02, 'log points', 'floor of a component\'s spread so EM cannot collapse a component onto a few identical residuals', DESIGN),
    renovated_min_prob: c(0.55, 'probability', 'the renovated posterior cut when fewer than cut_min_resale_legs resale legs anchor it (renovated-cut.ts). Measured on the default corpus (seed 1, condition and flags blanked, tract-only expectation), Tier-1 ARV signed median error on truly renovated sales by fixed cut: 0.5 -1.0%, 0.55 +0.2%, 0.65 +3.2%, 0.8 +6.3% (true condition: +0.1%); the best fixed cut moved when the expectation gained its area level, hence the anchor', 'measured, README (condition inference); scripts/measure-condition.ts'),
    renovated_cut_grid: c([0.3, 0.9, 0.025], 'probability (from, to, step)', 'grid searched for the cut whose hedonic-labelled renovated sales sit, in median, where the renovation resale legs sit', DESIGN),
    cut_min_resale_legs: c(30, 'resale legs', 'fewest renovation resale legs whose median residual anchors the cut (the median of 30 has a standard error of about 0.03 log at a 0.13 spread)', DESIGN),
    persist_days: c(2190, 'days', 'a house keeps its condition between renovations: the residuals of its earlier sales within 6 years, with no renovation resale between, are evidence on this sale\'s class (parcel-evidence.ts)', DESIGN),
    resale_min_gap_days: c(91, 'days', 'a resale within 90 days is a rapid resale the comp screen rejects (comp_policy.rapid_resale_days), not a renovation', 'comp_policy.rapid_resale_days + 1'),
    resale_max_gap_days: c(730, 'days', 'a renovation resale follows its purchase within 24 months (flips run 4-10 months; DOMAIN.md: "within months")', 'DOMAIN.md comparable sales; ATTOM flip reports (median hold ~6 months)'),
    resale_min_uplift_log: c(0.25, 'log points', 'time- and hedonic-adjusted uplift of a renovation resale (+28%); two sales of an unchanged house differ by the sale noise alone (about 0.14 log sd)', 'ATTOM 2024 flip gross spread ~23-30% of resale; DOMAIN.md'),
    resale_buy_max_residual_log: c(0, 'log points', 'the purchase leg of a renovation pair sold at or below its hedonic expectation ("a cheap purchase")', DESIGN),
  },
});
