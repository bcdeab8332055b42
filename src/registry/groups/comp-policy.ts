// Comp policy v2 of the spec: bands, expansion ladder, trim, counts, time-index and GLA caps, gates.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md, Comp policy (v2) and Limits';

export const COMP_POLICY = defineGroup({
  name: 'comp_policy',
  version: '2.1.0',
  owner: 'valuation',
  entries: {
    gla_band_frac: c(0.2, 'fraction of subject sqft', 'living-area band ±20% when subject sqft is known', SPEC),
    beds_band: c(1, 'bedrooms', 'bedroom band ±1 when both known', SPEC),
    ladder_radius_mi: c([0.5, 0.75, 1.0], 'miles', 'expansion ladder radius per step 1..3', SPEC),
    ladder_window_days: c([180, 270, 365], 'days', 'expansion ladder sale-date window per step 1..3', SPEC),
    ladder_confidence_penalty: c(8, 'confidence points', 'each ladder step past 1 costs 8 confidence points', SPEC),
    mad_trim_k: c(3.0, 'MADs', 'log price-per-sqft trimmed at 3.0 x MAD when sqft is known', SPEC),
    mad_scale: c(1.4826, 'factor', 'MAD scaled by 1.4826 so it estimates sigma under normality (consistency constant)', 'standard robust statistics convention (Rousseeuw & Croux 1993)'),
    min_comps_value: c(3, 'comps', 'minimum comps to value at all', SPEC),
    min_comps_point: c(5, 'comps', 'at least 5 comps for a public point, else range_only', SPEC),
    target_comps: c(8, 'comps', 'target number of comps', SPEC),
    max_comps: c(12, 'comps', 'maximum comps used', SPEC),
    time_index_max_annual: c(0.08, 'fraction per year', 'time index factor capped at 8% per year compounded', SPEC),
    time_index_clamp: c([0.75, 1.3], 'factor', 'time index factor hard clamp', SPEC),
    gla_adj_cap_frac: c(0.15, 'fraction of indexed price', 'living-area adjustment capped at ±15% of the indexed price', SPEC),
    gla_marginal_frac: c(0.5, 'fraction of median indexed $/sf', 'marginal value of living area is below the average $/sf (land and fixed costs do not scale with area); the GLA adjustment uses half the comp set median indexed $/sf', 'appraisal practice: paired-sales GLA adjustments typically run 25-50% of average $/sf; house choice at the top of that range (issue 3)'),
    similarity_weights: c([0.4, 0.3, 0.2, 0.1], 'weights (distance, recency, living area, bedrooms)', 'comp similarity = weighted mean of closeness terms in [0,1]; location and recency dominate because area and beds are already banded', 'house choice (issue 3), formula in crates/avm-kernel/src/select.rs'),
    dispersion_gate: c(0.35, 'fsd fraction', 'above this robust dispersion the comp ARV is suppressed (dispersion_exceeds_threshold)', SPEC),
    legacy_dispersion_gate: c(0.45, 'fraction', 'legacy /api/underwrite summary gate', SPEC),
    legacy_min_similarity: c(0.45, 'score', 'legacy arv_source gate: similarity >= 0.45', SPEC),
    legacy_min_comps: c(4, 'comps', 'legacy arv_source gate: at least 4 comps', SPEC),
    legacy_min_confidence: c(55, 'confidence points', 'legacy arv_source gate: confidence >= 55', SPEC),
    price_floor_usd: c(10_000, 'USD', 'sales under $10k are not arms-length (price_under_10k)', 'DOMAIN.md arms-length screens; CCAO sale_filter_less_than_10k'),
    duplicate_window_days: c(365, 'days', 'same PIN and price again within 365 days is a duplicate record', 'CCAO sale_filter_same_sale_within_365'),
    rapid_resale_days: c(90, 'days', 'a resale of the same PIN within 90 days is not a market comp', 'DOMAIN.md repeat-sale screen'),
    fsd_tier_high_max: c(13, 'percent', 'fsd <= 13 is high confidence tier', 'service-spec.md ARV fsd tiers'),
    fsd_tier_medium_max: c(20, 'percent', 'fsd <= 20 is medium; above is low', 'service-spec.md ARV fsd tiers'),
  },
});
