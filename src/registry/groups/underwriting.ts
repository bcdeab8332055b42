// Underwriting defaults: financing terms per loan type, operating-cost ratios, closing costs, growth, offers.
// Every value is a market convention a caller can override through custom_assumptions where the spec allows.
import { c, defineGroup } from '../define.js';

const DOMAIN = 'DOMAIN.md, Underwriting conventions';
const PMMS = 'Freddie Mac PMMS 30-year fixed averaged about 6.5-7% in 2024-2025';

export const UNDERWRITING = defineGroup({
  name: 'underwriting',
  version: '1.0.0',
  owner: 'underwriting',
  entries: {
    horizon_years_default: c(5, 'years', 'default cashflow horizon', 'service-spec.md, deep_underwrite_asset horizon_years'),
    horizon_years_bounds: c([1, 30], 'years', 'cashflow horizon bounds', 'service-spec.md, Limits'),
    rent_growth_annual: c(0.02, 'fraction per year', 'rent grows 2% a year in the cashflow array', 'service-spec.md, deep_underwrite_asset'),
    opex_growth_annual: c(0.025, 'fraction per year', 'operating expenses grow 2.5% a year in the cashflow array', 'service-spec.md, deep_underwrite_asset'),
    // conventional_investor
    conv_inv_down_frac: c(0.25, 'fraction of price', 'investor 2-4 unit loans cap LTV at 75%', 'Fannie Mae Eligibility Matrix, investment property 2-4 units max LTV 75%'),
    conv_inv_rate_pct: c(7.25, 'percent per year', 'conforming rate plus investor loan-level price adjustments', `${PMMS}; plus about 0.5pt investor LLPA`),
    // dscr_loan
    dscr_down_frac: c(0.25, 'fraction of value', 'DSCR lenders lend up to about 75% LTV', `${DOMAIN} (DSCR loans)`),
    dscr_rate_pct: c(7.75, 'percent per year', 'non-QM DSCR loans price about 1pt over conforming', `${PMMS}; non-QM premium convention`),
    dscr_lender_min: c(1.0, 'ratio', 'DSCR lenders ask NOI / debt service of 1.0-1.25; the loan limit uses the floor', DOMAIN),
    // hard_money
    hm_down_frac: c(0.1, 'fraction of price', 'hard-money lenders fund about 90% of purchase', `${DOMAIN} (hard money); convention`),
    hm_rate_pct: c(11, 'percent per year', 'hard money: high rate, interest-only', `${DOMAIN}; convention 10-12%`),
    hm_points_frac: c(0.02, 'fraction of loan', 'origination points', `${DOMAIN}; convention 1-3 points`),
    hm_term_months: c(12, 'months', 'short term, interest-only', DOMAIN),
    hm_max_ltc_frac: c(0.9, 'fraction of purchase + rehab', 'loan limit on cost', 'convention (hard-money 85-90% LTC)'),
    hm_max_arv_frac: c(0.7, 'fraction of ARV', 'loan limit on ARV', 'convention (hard-money 65-75% of ARV)'),
    hm_funds_rehab: c(true, 'boolean', 'hard money funds the rehab budget in draws', 'convention'),
    // fha_oo
    fha_down_frac: c(0.035, 'fraction of price', 'FHA minimum down payment at 580+ credit', 'HUD Handbook 4000.1 II.A.2'),
    fha_rate_pct: c(6.5, 'percent per year', 'FHA rates track slightly under conforming', PMMS),
    fha_upfront_mip_frac: c(0.0175, 'fraction of base loan', 'upfront MIP, financed into the loan', 'HUD Mortgagee Letter 2015-01 / Handbook 4000.1'),
    fha_annual_mip_frac: c(0.0055, 'fraction of loan per year', 'annual MIP, LTV > 95%, term > 15 years', 'HUD Mortgagee Letter 2023-05'),
    fha_self_sufficiency_rent_frac: c(0.75, 'fraction of gross rents', '3-4 unit FHA: 75% of gross rents must cover PITI', `${DOMAIN}; HUD Handbook 4000.1 II.A.4.c`),
    fha_self_sufficiency_min_units: c(3, 'units', 'the self-sufficiency test applies to 3-4 units', 'HUD Handbook 4000.1'),
    // conventional_oo
    conv_oo_down_frac: c(0.05, 'fraction of price', 'owner-occupied conventional minimum for 1-4 units', 'Fannie Mae Selling Guide B5-6 (5% down for 2-4 unit principal residences from Nov 2023)'),
    conv_oo_rate_pct: c(6.75, 'percent per year', 'conforming owner-occupied rate', PMMS),
    conv_oo_pmi_annual_frac: c(0.005, 'fraction of loan per year', 'private mortgage insurance while LTV > 80%', 'convention (PMI 0.3-1.0% per year)'),
    pmi_ltv_threshold: c(0.8, 'LTV', 'PMI required above 80% LTV', 'Homeowners Protection Act / Fannie Mae'),
    amortizing_term_years: c(30, 'years', 'term of every amortizing loan', 'standard 30-year fixed'),
    // costs
    buy_closing_frac: c(0.02, 'fraction of price', 'title, recording, lender fees, attorney', 'convention (buyer closing 2-3%)'),
    sell_closing_frac: c(0.06, 'fraction of sale price', 'commission ~5% plus seller transfer tax and title', 'convention; IL + Cook transfer tax 0.15%'),
    refi_closing_frac: c(0.02, 'fraction of refi loan', 'refinance closing costs', 'convention'),
    insurance_annual_per_unit_usd: c(1500, 'USD per unit per year', 'landlord (DP-3) or HO-3 policy', 'convention; Illinois average homeowners premium about $1,500-2,000 (Bankrate/NerdWallet 2024)'),
    vacancy_frac: c(0.08, 'fraction of gross rent', 'vacancy and credit loss', 'convention; Census HVS Midwest rental vacancy about 6-8%'),
    management_frac: c(0.08, 'fraction of effective gross income', 'paid property management, zero when mgmt_self', 'convention 8-10%'),
    maintenance_frac: c(0.08, 'fraction of gross rent', 'repairs and maintenance', 'convention'),
    capex_frac: c(0.07, 'fraction of gross rent', 'capital reserves (roof, HVAC, appliances)', 'convention'),
    compliance_chicago_per_unit_usd: c(150, 'USD per unit per year', 'Chicago RLTO compliance reserve (deposit interest, notices, legal)', 'Chicago Residential Landlord and Tenant Ordinance (MCC 5-12); convention for the amount'),
    compliance_cook_per_unit_usd: c(100, 'USD per unit per year', 'suburban Cook RTLO compliance reserve', 'Cook County Residential Tenant Landlord Ordinance (2021); convention for the amount'),
    compliance_owner_occ_exempt_max_units: c(6, 'units', 'RLTO and Cook RTLO exempt owner-occupied buildings of six or fewer units', 'MCC 5-12-020; Cook County Code 42-802'),
    // strategy defaults
    flip_hold_months: c(6, 'months', 'rehab plus sale period', DOMAIN),
    brrrr_hold_months: c(6, 'months', 'rehab plus refinance seasoning', `${DOMAIN} (seasoning period)`),
    rental_hold_months: c(0, 'months', 'hold and house-hack rent from closing', 'convention'),
    flip_rule_arv_frac: c(0.7, 'fraction of ARV', 'the 70% rule: offer <= 0.70 x ARV - rehab', DOMAIN),
    flip_target_margin_frac: c(0.1, 'fraction of ARV', 'target profit in the full-cost max offer', 'convention (10-15% of ARV)'),
    brrrr_refi_ltv: c(0.75, 'fraction of ARV', 'refinance at 70-75% of ARV', DOMAIN),
    brrrr_target_cash_left_frac: c(0.2, 'fraction of all-in cost', 'BRRRR works when the refinance returns most of the cash: at most 20% left in', DOMAIN),
  },
});
