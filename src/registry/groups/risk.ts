// Risk report constants: flag weights (points out of 100), flag thresholds and saturation points, band cut-offs.
// A flag at its threshold contributes half its weight; at its saturation point, all of it (see src/risk/score.ts).
import { c, defineGroup } from '../define.js';

const CONV = 'convention (screening heuristic; tune against outcomes)';

export const RISK = defineGroup({
  name: 'risk',
  version: '1.0.0',
  owner: 'risk',
  entries: {
    band_cutoffs: c([25, 50, 75], 'risk score', 'bands: low < 25 ≤ moderate < 50 ≤ high < 75 ≤ severe', CONV),
    weight_tax_shock: c(15, 'points', 'tax shock after purchase: the forward bill jumps at the next reassessment', 'DOMAIN.md, Property tax (tax shock)'),
    weight_tax_trap: c(12, 'points', 'tax trap: the bill is a large share of the price every year', CONV),
    weight_basement_flood: c(8, 'points', 'below-grade space: seepage and sewer-backup exposure', CONV),
    weight_distress_proximity: c(15, 'points', 'many distressed sales nearby: weak resale and appraisal support', CONV),
    weight_closing_friction: c(10, 'points', 'estate/title deed history or a fallen-through contract', CONV),
    weight_legal_unit_mismatch: c(15, 'points', 'more units marketed than the assessor records: illegal-unit, permit and financing risk', CONV),
    weight_appraisal_ceiling: c(10, 'points', 'ARV near or above the highest renovated sale nearby: the appraisal may not reach it', 'service-spec.md, ARV (appraisal_ceiling)'),
    weight_vintage_stock: c(5, 'points', 'old housing stock: lead paint, wiring, plumbing surprises', CONV),
    weight_rent_model_uncertainty: c(10, 'points', 'the rent band is wide (rent_confidence low)', 'service-spec.md, Rent (rent_confidence low raises rent_model_uncertainty)'),
    tax_shock_saturation_frac: c(0.5, 'fraction increase', 'a forward bill 50% above the current one counts fully (threshold: tax.shock_threshold_frac)', CONV),
    tax_trap_rate: c(0.03, 'annual bill / price', 'flag when the forward bill is at least 3% of the price a year (well above Cook\'s ~2% average effective rate)', 'data/reference muni_tax_rates.csv effective rates; convention'),
    tax_trap_saturation_rate: c(0.05, 'annual bill / price', 'a bill of 5% of price a year counts fully', CONV),
    distress_radius_mi: c(0.5, 'miles', 'distressed-sale share is measured within the comp policy\'s first ladder radius', 'service-spec.md, Comp policy (step 1: 0.5 mi)'),
    distress_window_days: c(730, 'days', 'over the last 24 months of sales', 'service-spec.md, ARV (appraisal_ceiling uses a 24-month window)'),
    distress_min_sales: c(10, 'sales', 'below 10 nearby sales the share is not evidence', CONV),
    distress_share_threshold: c(0.25, 'fraction of nearby sales', 'flag when at least a quarter of nearby sales were distressed', CONV),
    distress_share_saturation: c(0.5, 'fraction of nearby sales', 'half or more distressed counts fully', CONV),
    vintage_year_threshold: c(1978, 'year built', 'built before 1978: federal lead-based paint disclosure applies', '42 U.S.C. 4852d; 24 CFR 35 / 40 CFR 745 (pre-1978 target housing)'),
    vintage_year_saturation: c(1920, 'year built', 'pre-1920 stock counts fully', CONV),
  },
});
