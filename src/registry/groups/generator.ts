// Synthetic corpus generator: the known price surface, stock mix, defect rates and scale sizes. Every number here is
// a synthetic assumption (stated as such), anchored where possible to the real reference data in data/reference.
import { c, defineGroup } from '../define.js';

const SYN = 'synthetic assumption of the generator (not measured data); chosen to be plausible for Cook/Lake';
const CLASS_DICT = 'ccao-data/data-architecture ccao.class_dict.csv (class size/age bounds)';

export const GENERATOR = defineGroup({
  name: 'generator',
  version: '3.0.0',
  owner: 'data',
  entries: {
    // Geography
    tracts_total: c(1662, 'tracts', 'tract GEOIDs of the corpus: 802 real Chicago tracts (of the 803 Cook ones in data/reference/chicago_tracts.csv, 17031810501 has its internal point outside the city\'s CCAO townships and is left out), 700 generated suburban Cook and 160 generated Lake tracts; 1,492 (all generated) before generator 3.0.0', 'service-spec.md Scope (1,492 tracts), changed by issue 14: real Chicago GEOIDs and one generated tract or more per suburban neighborhood'),
    tracts_lake: c(160, 'tracts', 'Lake County tracts (generated)', 'brief: realistic split ~1,332 Cook / ~160 Lake'),
    lake_outline_lonlat: c(
      [-88.199, 42.153, -87.758, 42.153, -87.785, 42.2, -87.8, 42.24, -87.815, 42.28, -87.826, 42.33, -87.83, 42.37, -87.82, 42.41, -87.808, 42.45, -87.8, 42.495, -88.199, 42.495],
      'degrees lon,lat pairs', 'Lake County IL outline: state line north, Lake-Cook Road south, McHenry line west, a lakeshore-shaped east edge', 'approximate, read off public maps; synthetic outline'),
    lake_seed_sd_deg: c(0.03, 'degrees', 'Lake tract seeds scatter around ZIP centroids so towns get small tracts and open land large ones', SYN),
    lake_seed_uniform_share: c(0.2, 'fraction', 'share of Lake tract seeds placed uniformly (rural tracts)', SYN),
    // Price surface
    loc_kernel_bandwidth_mi: c(3.0, 'miles', 'Gaussian bandwidth smoothing PIN-area price anchors into a per-tract location effect', SYN + '; wide enough that adjacent tracts differ little'),
    tract_effect_sd: c(0.05, 'log points', 'raw per-tract random location deviation before spatial smoothing', SYN),
    tract_effect_bandwidth_mi: c(1.0, 'miles', 'Gaussian bandwidth smoothing the per-tract deviation (keeps comps within 0.5-1 mi informative)', SYN),
    ref_sqft: c(1500, 'sqft', 'reference living area at which the location effect equals the area median level', SYN),
    ref_age_years: c(60, 'years', 'reference building age of the hedonic model', SYN),
    ref_beds: c(3, 'bedrooms', 'reference bedroom count of the hedonic model', SYN),
    beta_ln_sqft: c(0.55, 'log price per log sqft', 'living-area elasticity of value', SYN + '; typical hedonic estimates are 0.4-0.7'),
    beta_beds: c(0.02, 'log price per bedroom', 'bedroom premium at fixed living area', SYN),
    beta_age_per_year: c(-0.0006, 'log price per year of age', 'age discount, capped at age_cap_years', SYN),
    age_cap_years: c(100, 'years', 'age beyond which no further age discount applies', SYN),
    unit_premium_log: c([0, 0, -0.06, -0.1, -0.13], 'log points by units 0..4', 'multi-unit buildings sell below a single-family of the same total area', SYN),
    condo_premium_log: c(-0.05, 'log points', 'condo units sell slightly below a house of the same area', SYN),
    // Condition. The renovated value (ARV) is log-additive like the rest of the surface; a house that needs work sells
    // for its ARV less what its buyer must spend on the work, a cost set per square foot, not a share of value.
    renovated_over_level_log: c(0.128, 'log points', 'the location level is anchored on real mixed-condition sale levels; the renovated value of the reference house sits this far above it (ln 1/0.88, the dated-to-renovated gap of generator 1.x, kept so renovated and new values are unchanged)', 'brief: condition effects; generator 1.1.0'),
    new_over_renovated_log: c(0.077, 'log points', 'new construction sells 8% over the same house renovated (ln 1.08)', 'brief: condition effects'),
    repair_psf_usd: c(
      [100, 35],
      'USD per sqft of living area in July 2025 dollars, distressed,dated',
      'cost of bringing the house to renovated condition: distressed = a gut to the studs with new systems, dated = a kitchen and bath update with cosmetic work. ' +
        'Before 2.0.0 condition was a constant log offset (distressed -30%, dated -12% of ARV whatever the size or value); on the default corpus (seed 20261121) every point-valued listing gated out for flip (margin median -21%), because a $/sqft rehab is most of a cheap house\'s value and little of a dear one\'s',
      'convention from public cost guides: gut renovation $60-150/sqft, standard remodel $15-60/sqft (all4home.blog and oriolehd.com 2025-26 renovation cost pages; Angi/HomeAdvisor whole-house pages quote the same bands), gut at the band middle; dated cross-checked with Remodeling Cost vs. Value 2023 job costs, midrange minor kitchen remodel ~$27k plus midrange bath remodel ~$27k on a 1,500 sqft house = $36/sqft',
    ),
    repair_cost_anchor_date: c('2025-07-01', 'ISO date', 'the date repair_psf_usd is priced at; other sale dates scale it by repair_cost_growth_log_per_year', 'date of the cost guides quoted'),
    repair_cost_growth_log_per_year: c(0.06, 'log growth per year', 'repair costs before (after) the anchor date are deflated (inflated) at this rate', 'BLS PPI inputs to residential construction via NAHB: +40% from January 2020 to May 2022, slower since; about +0.06 log a year averaged over 2020-2026, rounded (convention)'),
    repair_scope_sd_log: c(0.25, 'log points', 'houses in one condition differ in how much work they need: each parcel carries a lognormal scope multiplier (median 1) drawn once from its own random stream', SYN),
    repair_price_factor: c(
      [1.1, 0.8],
      'USD of price discount per USD of repair cost, distressed,dated',
      'distressed houses are cash sales to investors, who bid the repair budget plus a 10% overrun contingency; dated houses are mortgageable and bought by owner-occupants, who pay less than the work costs for it being done (renovations recoup about 70-95% of their cost at resale)',
      'distressed: contingency convention 7-15% of the rehab budget (fix-and-flip 70% rule guides, e.g. getmydscr.com fix-and-flip-70 tool); dated: Zonda/Remodeling Cost vs. Value 2024, Chicago, midrange minor kitchen remodel 94% of cost recouped, midrange bathroom remodel 69% (rounded to 0.8)',
    ),
    buyer_spread_frac: c(
      [0.25, 0],
      'fraction of ARV, distressed,dated',
      'the investor who buys a distressed house also needs its selling costs, purchase closing, holding and financing over the rehab, and a profit, all of which scale with the resale price (ARV); an owner-occupant buying a dated house needs none of these',
      'sum of conventions, rounded: sale closing ~6% (underwriting.sell_closing_frac), purchase closing ~1-2%, hard-money holding and financing over ~6 months 6-8%, profit ~10% (underwriting.flip_target_margin_frac); the 70% rule (DOMAIN.md) reserves 30% with a safety buffer a competing bidder gives up, its hot-market 75% variant 25%. ' +
        'Cross-check: ATTOM Q2 2024 U.S. Home Flipping Report, median flip bought at $241,508 and resold at $315,000 (gross spread 23% of resale before rehab and costs)',
    ),
    as_is_floor_frac: c(0.2, 'fraction of ARV', 'a house whose repair costs more than its buyer can recover still sells for its lot and shell (teardown or partial repair); the floor is that share of ARV', SYN + '; land is a large share of house value in big metros (Davis, Larson, Oliner & Shui 2021, J. Monetary Econ. 118, FHFA WP 19-01) and less in low-price areas, so 0.2 is a low-side share'),
    noise_sigma_log: c(0.1, 'log points', 'sd of the sale noise of a house at its neighborhood level (3.0.0: Student-t, noise_t_dof, and wider for cheaper houses, noise_tier_slope; before it lognormal with this sigma everywhere, MdAPE of the true value ~ 0.6745 x sigma ~ 6.7%); on the default corpus the true value misses the price by a median 5.6%', 'brief: documented sigma ~0.10'),
    lake_median_2019_usd: c(215000, 'USD', 'Lake County 2019 location level of the 1,500 sqft reference house (its ARV is renovated_over_level_log above) (no real Lake sales in the reference data); Lake houses are larger, so the median sale lands near the ~$250k public county median', 'approximate public county median (Illinois REALTORS county reports); synthetic anchor'),
    lake_zip_rel_level: c(
      ['60002:0.9', '60010:1.5', '60015:1.8', '60020:0.75', '60030:1.05', '60031:1.0', '60035:1.9', '60040:1.2', '60041:0.75', '60042:0.8', '60044:1.9', '60045:2.6', '60046:0.85', '60047:1.35', '60048:1.45', '60060:1.0', '60061:1.3', '60064:0.5', '60069:1.8', '60073:0.75', '60083:1.1', '60084:0.95', '60085:0.6', '60087:0.75', '60089:1.3', '60096:0.85', '60099:0.6'],
      'ZIP:ratio to Lake median', 'relative price level of Lake ZIP areas (Lake Forest high, North Chicago low)', SYN + '; ordering follows public median home value rankings, magnitudes rounded'),
    // Generator 3.0.0: real neighborhood levels and volumes, real Chicago tracts, realistic dispersion.
    tracts_suburb_cook: c(700, 'tracts', 'suburban Cook tracts are still generated (Voronoi cells inside each of the 669 suburban CCAO neighborhoods, at least one each, the rest by real sales volume); Chicago uses the 803 real Cook GEOIDs', SYN + '; about the real suburban count (1,332 Cook tracts less the city\'s ~800) but no fewer than one per neighborhood'),
    nbhd_level_min_year_n: c(30, 'sales', 'a neighborhood-year with at least this many real class-2 sales uses its own real median as its level; a thinner year uses the county level of the year plus the neighborhood\'s pooled relative level', 'issue 14 realism target floor (neighborhoods with >= 30 real sales a year)'),
    nbhd_level_pool_years: c([2018, 2022], 'years', 'years pooled (sales-weighted) into a neighborhood\'s relative level', 'the five most recent real years in data/reference/nbhd_sales.csv'),
    nbhd_volume_years: c([2020, 2022], 'years', 'a neighborhood\'s parcel density is its mean real class-2 sales count over these years (the real years inside the default sale window)', 'data/reference/nbhd_sales.csv'),
    quality_sd_log: c(0.3, 'log points', 'per-parcel unobserved quality (finish, lot, view, block) the characteristics do not carry; part of the true value, so no model that reads only the characteristics can see it. Multiplied per PIN area by the dispersion scale fitted to the real spread (src/ingest/generate/anchor-spread.ts)', SYN + '; tuned so the within-PIN-area spread of non-condo sale prices matches the real 2019 spread (data/reference/area_dispersion.csv, truth/realism.json)'),
    noise_t_dof: c(5, 'degrees of freedom', 'sale noise is Student-t (fat-tailed: real sales have far more prices at 2x or 1/2 of their area median than a lognormal gives)', SYN + '; tuned with quality_sd_log against the real tail share'),
    noise_tier_slope: c(0.35, 'log sd per log of value below the neighborhood level', 'heteroscedastic noise: the sd is noise_sigma_log x exp(-slope x (ln value - ln neighborhood level)), wider for cheap houses', SYN),
    noise_tier_clamp_log: c([-1.5, 1.5], 'log points', 'clamp of the value-to-level position in the noise scale', SYN),
    char_renovation_rate: c(4 / 70, 'fraction of characteristics rows', 'char_renovation = 1 on this share of rows, all of them renovated buildings (the flag is a weak signal: most renovated houses carry no flag)', 'measured: 4 of the 70 real rows of ccao-data/ccao chars_sample_athena.csv (raw ccao-ccao/)'),
    char_repair_below_rate: c(7 / 70, 'fraction of characteristics rows', 'char_repair_cnd = 3 (below average) on this share of rows; no row is 1 (above average), as in the real sample', 'measured: 7 of 70 rows below average, 63 average, 0 above average (ccao-ccao/chars_sample_athena.csv)'),
    char_repair_below_given_distressed: c(0.5, 'probability', 'a distressed building is marked below average with this probability; dated buildings fill the rest of char_repair_below_rate', SYN + '; the assessor\'s repair flag lags and misses real condition'),
    realism_targets: c(
      [0.05, 30, 0.1, 0.08, 2019],
      'median gap log, min real sales, relative tolerance, KS max, real dispersion year',
      'targets the realism report (truth/realism.json) checks: neighborhood median gap <= 0.05 log where a neighborhood-year has >= 30 real sales; within-area IQR and tail share within 10% of the real ones; KS <= 0.08 per PIN area; the real within-area spread is the 2019 one',
      'issue 14 (Targets: Realism)',
    ),
    // Time index: real yearly levels 2015-2019 from data/reference, then this synthetic path.
    time_growth_log_2020_2026: c([0.05, 0.1, 0.07, 0.04, 0.06, 0.05, 0.03], 'log growth per year 2020..2026', 'synthetic continuation of the Chicago-area index after the last real year (2019)', SYN + '; direction follows the public S&P CoreLogic Case-Shiller Chicago index, values rounded'),
    seasonal_amplitude_log: c(0.015, 'log points', 'monthly seasonality: peak in June, trough in December', SYN),
    history_years: c(6, 'years', 'sales are generated over the 6 years ending at the as-of date', 'brief: at least 6 years'),
    // Stock mix and characteristics
    ptype_mix_chicago: c([0.5, 0.28, 0.22], 'share sfh,mf2_4,condo', 'Chicago stock has more 2-4 flats and condos', SYN + '; real Cook sales are ~31.5% condo (raw SOURCES.md)'),
    ptype_mix_suburb: c([0.75, 0.05, 0.2], 'share sfh,mf2_4,condo', 'suburban Cook stock mix', SYN),
    ptype_mix_lake: c([0.82, 0.03, 0.15], 'share sfh,mf2_4,condo', 'Lake County stock mix', SYN),
    mf_units_mix: c([0.6, 0.25, 0.15], 'share of 2,3,4 units', '2-flats dominate small multi-family', SYN),
    sqft_median_sfh: c([1350, 1650, 2000], 'sqft chicago,suburb,lake', 'median single-family living area', SYN),
    sqft_per_unit_mf: c(1000, 'sqft per unit', 'median living area per apartment in a 2-4 flat', SYN),
    sqft_median_condo: c(1050, 'sqft', 'median condo living area', SYN),
    sqft_sd_log: c(0.28, 'log points', 'spread of living area', SYN),
    sqft_per_bedroom: c(550, 'sqft per bedroom', 'single-family and condo bedrooms ~ sqft / 550 + 0.3, rounded', SYN),
    beds_noise_sd: c(0.6, 'bedrooms', 'spread of the bedroom count around its sqft-implied value', SYN),
    beds_bounds: c([1, 6], 'bedrooms', 'bedroom clamp of a single-family house or condo', SYN),
    mf_beds_per_unit: c([2, 3], 'bedrooms per apartment', 'apartments in 2-4 flats have 2 or 3 bedrooms (equal odds)', SYN),
    condo_building_units: c([2, 24], 'units', 'condo units per building (uniform)', SYN),
    lake_parcel_share: c(0.1, 'fraction', 'Lake County share of the 1-4 unit parcels (Lake has ~1/10 of the two counties\' housing units)', 'approximate ACS housing unit counts, Cook ~2.2M vs Lake ~0.26M; rounded'),
    lots_per_block: c(40, 'parcels', 'lots per synthetic PIN block before the block number advances', SYN),
    sqft_bounds: c([450, 6500], 'sqft', 'living area clamp', SYN),
    one_story_share: c(0.35, 'fraction', 'share of single-family houses with one story (rest two-story, some split-level)', SYN),
    split_level_share: c(0.08, 'fraction', 'share of suburban single-family houses that are split-level (class 234)', SYN),
    yrblt_eras: c([1885, 1930, 1950, 1980, 2000, 2020], 'year breakpoints', 'eras of construction used by the era mixes', SYN),
    yrblt_mix_chicago: c([0.62, 0.12, 0.12, 0.07, 0.07], 'share per era', 'Chicago stock is mostly pre-1930', SYN),
    yrblt_mix_suburb: c([0.1, 0.12, 0.43, 0.2, 0.15], 'share per era', 'suburban stock is mostly post-war', SYN),
    yrblt_mix_lake: c([0.05, 0.08, 0.3, 0.3, 0.27], 'share per era', 'Lake stock is younger', SYN),
    new_build_share: c(0.05, 'fraction', 'share of parcels built within the sale window (condition new at early sales)', SYN),
    new_condition_max_age_years: c(2, 'years', 'a sale within 2 years of construction is condition new (matches ingest.new_build_max_age_years)', 'ingest group rule'),
    distressed_tier_slope: c(1.0, 'log of the distressed share per log of neighborhood level over the county level', 'distress concentrates where prices are low: a neighborhood\'s distressed share is condition_mix[0] x exp(-slope x (its last real ln level - the county\'s)), level clamped as noise_tier_clamp_log, dated and renovated sharing the rest in their base proportion (generator 3.0.0; before it every tract had the same mix, so uniform high-price suburbs sold far more houses at half their area median than real ones)', SYN + '; tuned against the real within-area tail share (truth/realism.json)'),
    distressed_share_max: c(0.3, 'fraction', 'cap of a neighborhood\'s distressed share', SYN),
    condition_mix: c([0.05, 0.5, 0.45], 'share distressed,dated,renovated', 'condition of existing (not new) buildings at the county level (distressed scaled by neighborhood level, distressed_tier_slope); distressed 0.08 before 3.0.0, lowered because distressed sales at 20-60% of ARV made the within-area tails of the suburbs 2-4x the real ones', SYN + '; enough renovated stock for >= 5 renovated comps within 1 mi / 365 d'),
    // Sales activity and defects
    sale_min_gap_days: c(400, 'days', 'natural resales of one PIN are at least this far apart (only defects create closer pairs)', SYN),
    flip_share_of_parcels: c(0.02, 'fraction of non-condo parcels', 'same-PIN flip pairs: distressed buy then renovated resale', SYN),
    flip_gap_days: c([120, 300], 'days', 'flip resale 4-10 months after the buy', 'brief: flip pairs 4-10 months'),
    rate_quitclaim: c(0.04, 'extra rows per arms sale', 'quit-claim transfers (family, trusts) at nominal or partial prices', SYN),
    rate_non_arms_deed: c(0.02, 'extra rows per arms sale', 'executor, beneficiary and other deeds', SYN),
    rate_under_10k: c(0.006, 'extra rows per arms sale', 'warranty-deed rows under $10k', SYN),
    rate_multi_parcel: c(0.01, 'extra sales per arms sale', 'multi-parcel sales (2-4 PINs, one price)', SYN),
    rate_duplicate: c(0.012, 'extra rows per arms sale', 'same PIN, same price recorded again within 365 days', SYN),
    rate_rapid_resale: c(0.006, 'extra rows per arms sale', 'resale of the same PIN within 90 days', SYN),
    quitclaim_price_frac: c([0.05, 0.6], 'fraction of true value', 'quit-claim consideration is nominal or partial', SYN),
    non_arms_price_frac: c([0.6, 1.0], 'fraction of true value', 'estate and other transfers below market', SYN),
    under_10k_price_usd: c([1000, 9999], 'USD', 'price range of the under-$10k warranty rows', 'comp_policy.price_floor_usd ($10k screen)'),
    multi_parcel_count: c([2, 4], 'parcels', 'parcels conveyed by one multi-parcel deed', SYN),
    duplicate_gap_days: c([1, 364], 'days', 'a duplicate record re-appears within 365 days', 'comp_policy.duplicate_window_days'),
    rapid_resale_gap_days: c([10, 89], 'days', 'a rapid resale follows within 90 days', 'comp_policy.rapid_resale_days'),
    rapid_resale_markup: c([1.02, 1.12], 'price ratio', 'wholesale assignments resell a little above the first price', SYN),
    trustee_share: c(0.12, 'fraction of arms sales', 'arms-length sales recorded with a trustee deed', SYN),
    // Rents (gross, HUD SAFMR style)
    metro_fmr_usd: c([1340, 1460, 1700, 2130, 2520], 'USD per month for 0..4 bedrooms', 'metro gross-rent anchor of the synthetic SAFMRs', 'rounded to the Chicago-Joliet-Naperville HMFA FMR magnitude (HUD FY2025); synthetic basis'),
    safmr_loc_elasticity: c(0.45, 'log rent per log price level', 'rents vary less across ZIPs than prices', SYN),
    safmr_bounds_frac: c([0.7, 1.5], 'fraction of metro FMR', 'SAFMR clamp around the metro FMR', SYN),
    market_over_safmr: c(1.1, 'ratio', 'true market gross rent over the 40th-percentile SAFMR', SYN),
    utility_allowance_usd: c([100, 120, 150, 180, 210], 'USD per month for 0..4 bedrooms', 'tenant utilities subtracted from gross to get contract rent', SYN + '; magnitude of public housing authority schedules'),
    rent_cond_effect_log: c([-0.15, -0.05, 0, 0.05], 'log points distressed,dated,renovated,new', 'condition effect on rent', SYN),
    rent_growth_log_per_year: c(0.04, 'log growth per year', 'rents before the as-of date are deflated at this rate', SYN),
    // Listings
    listings_count: c(200, 'listings', 'about 200 active listings', 'brief'),
    listing_duplicates: c(8, 'listings', 'the same address listed twice under different ids', 'brief: dedupe has work'),
    listings_ptype_mix: c([0.65, 0.23, 0.12], 'share sfh,mf2_4,condo', 'listings lean to houses and 2-4 flats (the strategies score them)', SYN),
    listing_price_cut_share: c(0.35, 'fraction', 'share of active listings with one price cut in their history', SYN),
    listing_price_cut_frac: c([0.02, 0.06], 'fraction of list price', 'size of a price cut', SYN),
    list_premium_log: c([0.03, 0.06], 'log mean, sd', 'list price over true value (market sales)', SYN),
    listing_forced_sale_share: c(
      [0.5, 0.1, 0, 0],
      'share of listings by condition distressed,dated,renovated,new',
      'forced or motivated sales (bank-owned, short sale, estate/probate) among active listings: half the distressed houses on the market are sold by a lender or an estate, a tenth of the dated ones by an estate; about 9% of all listings. ' +
        'Added in 1.1.0: before it every listing was priced at true as-is value x exp(N(0.03, 0.06)), so the feed held no stock below as-is value, unlike a real one; on the default corpus (seed 20261121) all 114 point-valued listings gated out for flip (profit margin median -22%, best -0.8%; scripts/gate-report.ts). ' +
        'A flip there needs a price at most 0.84 x the true as-is value on the best house (typically 0.6-0.75), so even with this stock a passing flip is a rare event: about 0.3-0.8 expected per 192-listing feed over seeds 20261121, 1, 2, 3, none realised on seed 20261121. ' +
        'That was under the flat condition offsets of 1.x; since 2.0.0 the as-is value is cost-based (repair_psf_usd) and the discount applies to it unchanged',
      SYN + '; magnitude of the distressed (REO + short sale) and estate shares of Chicago-area sales',
    ),
    listing_forced_sale_log_mean: c(
      [-0.22, -0.07, 0, 0],
      'log of list price over true as-is value, by condition distressed,dated,renovated,new',
      'a forced sale replaces the market premium with a discount to the value of the same house in the same condition: distressed houses are mostly bank-owned or short sales that only cash buyers can close (about 20% under), dated ones mostly estate sales (about 7% under)',
      'FHFA Mortgage Market Note 12-01 (2012), A Primer on Price Discount of REO Properties: academic REO discounts after condition and characteristics controls mostly 10-25% (range 0-50%), news figures 33-41% without controls; Campbell, Giglio & Pathak (2011), Forced Sales and House Prices, AER 101(5): estate (death) sales 5-7% below comparable houses',
    ),
    listing_forced_sale_log_sd: c([0.15, 0.05, 0, 0], 'log points by condition distressed,dated,renovated,new', 'spread of the forced-sale discount: bank-owned pricing ranges from none to deep (FHFA MMN 12-01: 0-50%), estate pricing varies less', SYN + '; the distressed spread puts about 90% of discounts between 0% and 37%'),
    list_age_days_max: c(120, 'days', 'active listings were listed within this many days before the as-of date', SYN),
    // Scales (sizes of the corpus)
    scale_parcels: c([20000, 360000, 2010000], 'parcels test,default,county', 'parcels per scale (county: Cook ~1.8M); default raised from 260k in 3.0.0 with the sales volume', 'brief: default ~250k, county >= 1.8M'),
    scale_arms_sales: c([16000, 340000, 1000000], 'arms-length sales test,default,county', 'arms-length sales per scale before defects (county total >= 1M rows). Default (3.0.0, was 228k): about 0.6 of the real Cook class-2 volume (2021-22: 91.6k rows a year over $10k, all deeds; truth/realism.json cook_volume_ratio), the most the 60 s first-start budget comfortably allows', 'brief: default ~150-250k, county >= 1M; issue 14: volumes proportional to the real counts'),
    class_sqft_bounds: c([999, 1800, 2200, 2000, 3800, 5000], 'sqft', '202/203/204 one-story bounds; 205/206 split at 2200; 207/278/208 at 2000/3800; 209 from 5000', CLASS_DICT),
    class_old_age_years: c(62, 'years', 'classes 205/206/210 are over 62 years old, 207/208/278 up to 62', CLASS_DICT),
  },
});
