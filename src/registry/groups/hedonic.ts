// Tier-2 hedonic model (hedonic_v1) constants: sample screens, tract-effect shrinkage, interval and display gates.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md ARV (hedonic_v1, interval hedonic_sigma_x_conformal)';

export const HEDONIC = defineGroup({
  name: 'hedonic',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    model_name: c('hedonic_v1', 'name', 'the transparent Tier-2 model of the spec', SPEC),
    min_segment_n: c(200, 'sales', 'a segment with fewer arms-length sales is not fit: ~30 coefficients plus tract effects need a few hundred rows', 'rule of thumb: at least ~10 observations per regression parameter (Harrell, Regression Modeling Strategies, 2015)'),
    shrink_k_floor: c(1, 'sales', 'lower bound of the empirical-Bayes shrinkage constant k = sigma^2 / tau^2 (keeps one-sale tracts at most half weight)', 'house rule for the n/(n+k) estimator (Efron & Morris 1975 empirical Bayes)'),
    tract_basis_min_weight: c(0.5, 'shrinkage weight', "location_basis is 'tract' when the tract's own data carry at least half the weight, else 'shrunk'", 'house rule: the weight n/(n+k) crossing 1/2 is where own data and prior weigh equally'),
    parent_radius_mi: c(1.5, 'miles', 'tracts whose centroids lie within this distance form the neighborhood mean a thin tract shrinks toward', 'issue 5 brief (neighbors within ~1.5 mi); about two Chicago tract diameters'),
    calib_holdout_days: c(180, 'days', 'the last 180 days before the cutoff are held out to measure the conformal correction out of time', 'DOMAIN.md out-of-time testing; matches the comp ladder step-1 window (service-spec Comp policy)'),
    min_calib_n: c(30, 'sales', 'a segment needs at least 30 held-out sales to be calibrated and display-eligible', 'DOMAIN.md: report a group only with at least 30 sales (IAAO)'),
    max_display_mdape: c(0.24, 'fraction', 'a segment whose held-out MdAPE is worse than the assessor county model test MAPE is not display-eligible', "DOMAIN.md: Cook County assessor's county model reported a test MAPE of 24%"),
    min_quarter_n: c(30, 'sales', 'a calendar quarter with fewer sales is pooled with the previous quarter (a thin last quarter would carry a noisy level forward)', 'DOMAIN.md: report a group only with at least 30 sales (IAAO)'),
    interval_z: c(1.2816, 'standard normal quantile', 'z for a two-sided 80% band (0.9 quantile of N(0,1))', 'service-spec.md 80% intervals; standard normal table'),
    ridge_lambda: c(1e-8, 'fraction of mean diagonal', 'tiny ridge on X\'X so an empty quarter or a constant column cannot make the solve singular; negligible shrinkage', 'numerical convention (Tikhonov regularisation for conditioning)'),
    age_scale_years: c(100, 'years', 'age and age^2 enter as age/100 and (age/100)^2 so the normal equations stay well scaled', 'numerical convention'),
    backtest_horizon_days: c(365, 'days', 'out-of-time backtest: test on sales in the year after the cutoff', 'DOMAIN.md out-of-time testing; Fannie Mae comps within 12 months'),
  },
});
