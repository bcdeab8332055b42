// Rent constants: utility allowance (SAFMR is gross), condition factors, sqft elasticity, bands and the uplift cap.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md Rent';
const UA = 'convention at the magnitude of the Chicago Housing Authority HCV utility allowance schedule (tenant-paid gas heat, cooking and electric, 2-4 flat); a caller/building-specific schedule overrides it';

export const RENT = defineGroup({
  name: 'rent',
  version: '1.0.0',
  owner: 'valuation',
  entries: {
    utility_allowance_usd: c([95, 115, 145, 175, 205], 'USD per month for 0..4 bedrooms', 'SAFMR is a gross rent (rent + tenant utilities): contract rent = SAFMR - allowance', UA),
    target_percentile: c(40, 'percentile', 'the contract rent aims at the SAFMR 40th percentile: a conservative rent, as investors want', 'HUD SAFMR definition (40th percentile of gross rent); DOMAIN.md Rents'),
    condition_factor: c([0.85, 0.95, 1.0, 1.05], 'factor for distressed, dated, renovated, new', 'as-is rent by building condition relative to a renovated unit', 'house convention (renovated-unit premiums of 5-15% in rental listings); checked by backtestRent'),
    ref_sqft_per_unit: c([500, 700, 950, 1200, 1450], 'sqft for 0..4 bedrooms', 'typical unit size the SAFMR bedroom rent refers to', 'convention: US Census AHS median unit size by bedrooms (rounded)'),
    sqft_elasticity: c(0.3, 'log rent per log sqft', 'a bigger unit of the same bedroom count rents for more, far less than proportionally', 'convention: hedonic rent studies find floor-area elasticities of about 0.2-0.4'),
    sqft_band: c([0.9, 1.2], 'factor', 'the sqft adjustment is held inside this band around the SAFMR (evidence bound of the post-reno uplift)', 'service-spec.md Rent (SAFMR band x sqft elasticity); house band'),
    uplift_cap_mult: c(1.5, 'x as-is', 'stabilized post-renovation rent is at most 1.5 x the as-is contract rent', SPEC),
    interval_pct_range: c([0.08, 0.25], 'fraction', 'rent band clamp', SPEC),
    base_band_pct: c(0.1, 'fraction', 'rent band when every input is known: the 40th-to-50th percentile spread of HUD FMRs is about 10%', 'HUD historically published 50th-percentile FMRs about 8-10% above the 40th'),
    band_add_beds_unknown: c(0.06, 'fraction', 'band added when the bedroom mix is assumed (2-bedroom reference unit)', 'house rule: one bedroom step in SAFMR is 15-25%, a third of it as band'),
    band_add_condition_unknown: c(0.05, 'fraction', 'band added when the condition is unknown', 'house rule: half the distressed-to-renovated factor spread'),
    band_add_sqft_unknown: c(0.03, 'fraction', 'band added to the post-reno rent when sqft is unknown (no elasticity applied)', 'house rule: the sqft band half-width'),
    band_add_post_reno: c(0.05, 'fraction', 'the post-renovation rent is a forecast: wider than today', 'house rule'),
    band_add_nearest_zip: c(0.05, 'fraction', 'band added when the ZIP has no SAFMR row and the nearest ZIP is used', 'house rule'),
    low_confidence_band: c(0.24, 'fraction', 'rent_confidence is low when the (unclamped) band exceeds ±24%', SPEC),
    default_beds_per_unit: c(2, 'bedrooms', 'unknown bedroom mix: the 2-bedroom FMR reference unit', 'HUD FMR: the 2-bedroom unit is the base of the FMR schedule'),
    backtest_window_days: c(365, 'days', 'rent backtest uses sales in the last 12 months (the SAFMR year) so deflated true rents stay comparable', 'HUD SAFMR fiscal-year vintage'),
  },
});

const CAP = 'convention at the magnitude of published Chicago-metro cap rates (CBRE U.S. Cap Rate Survey H2 2024: Chicago multifamily about 6.5-7.5%; single-family rental yields lower in the suburbs); a cross-check, never a value';

/** Income-approach cross-check (noi_implied_value = NOI / cap rate): cap rates by segment, the divergence warning, the plausibility band. */
export const INCOME = defineGroup({
  name: 'income',
  version: '1.1.0',
  owner: 'valuation',
  entries: {
    cap_rate_sfh_city: c(0.07, 'fraction per year', 'NOI yield of a Chicago single-family rental', CAP),
    cap_rate_sfh_suburb: c(0.065, 'fraction per year', 'NOI yield of a suburban single-family rental', CAP),
    cap_rate_mf2_4_city: c(0.075, 'fraction per year', 'NOI yield of a Chicago 2-4 flat', CAP),
    cap_rate_mf2_4_suburb: c(0.07, 'fraction per year', 'NOI yield of a suburban 2-4 flat', CAP),
    divergence_warn_frac: c(0.25, 'fraction of comp ARV', 'income_approach_diverges when abs(noi value − comp ARV)/comp ARV exceeds 25%', 'service-spec.md Valuation object noi_implied_value'),
    plausible_max_divergence_frac: c(
      0.5,
      'fraction of comp ARV',
      'noi_implied_value is published only when NOI > 0 and abs(noi value − comp ARV)/comp ARV ≤ 50%; otherwise null with noi_implied_value_null_reason. ' +
        'The income approach\'s own error on one property reaches about that: the rent band is up to ±25% and NOI is about half of gross rent (so ±50% of NOI), and the cap-rate convention is ±1 point on 7% (±14%); a larger gap says the cap-rate convention does not describe this market, not that the comps are wrong. ' +
        'Added in 1.1.0: on the default corpus (seed 20261121, every 25th parcel, 5,717 point valuations) the published value ran from under 0.001 to 1.21 × ARV (smallest $84), median 0.17 (sfh_suburb 0.15, sfh_city 0.24, mf2_4_city 0.33): with Cook taxes on the ARV and full operating costs, NOI is 1-3% of value against the 6.5-7.5% cap rates, so single-family values mostly fall outside the band',
      'house rule from the error budget above; appraisal practice gives an approach that departs this far no weight in reconciliation (1-unit income approach is usually not developed)',
    ),
  },
});
