// Income-approach cross-check: noi_implied_value = NOI / cap rate (segment). It never sets ARV. It is published only
// when it is a plausible cross-check (NOI positive, value within the registry's band of the comp ARV), else null with
// its reason; between 25% and the band it raises `income_approach_diverges`. NOI is the underwriting statement's.
import type { VALUATION_WARNINGS } from '../../contracts/valuation.js';
import { INCOME } from '../../registry/groups/rent.js';
import { operatingStatement, type Deal } from '../../underwriting/operating.js';

/** Why noi_implied_value is null (the valuation's noi_implied_value_null_reason). */
export const INCOME_NULL_REASONS = [
  'valuation_not_point', 'rent_unknown', 'tax_unknown', 'no_cap_rate_for_segment', 'county_unknown', 'noi_not_positive', 'no_comp_arv', 'outside_plausible_band',
] as const;
export type IncomeNullReason = (typeof INCOME_NULL_REASONS)[number];

export type IncomeCheck = {
  noi_implied_value: number | null;
  noi_annual_usd: number | null;
  cap_rate: number | null;
  /** abs(noi value − comp ARV) / comp ARV; null without either. */
  divergence_frac: number | null;
  /** Null exactly when noi_implied_value is published. */
  null_reason: IncomeNullReason | null;
  warnings: string[];
};

export const INCOME_DIVERGES_WARNING = 'income_approach_diverges' satisfies (typeof VALUATION_WARNINGS)[number];

const CAP_RATES: Readonly<Record<string, number>> = {
  sfh_city: INCOME.v.cap_rate_sfh_city, sfh_suburb: INCOME.v.cap_rate_sfh_suburb,
  mf2_4_city: INCOME.v.cap_rate_mf2_4_city, mf2_4_suburb: INCOME.v.cap_rate_mf2_4_suburb,
};

/** Cap rate of a segment key `<ptype>_<city|suburb>`; null for condo or unknown segments. */
export function capRateFor(segment: string | null): number | null {
  return segment !== null && Object.hasOwn(CAP_RATES, segment) ? CAP_RATES[segment] : null;
}

function unpublished(reason: IncomeNullReason, part: Partial<IncomeCheck> = {}): IncomeCheck {
  return { noi_implied_value: null, noi_annual_usd: null, cap_rate: null, divergence_frac: null, ...part, null_reason: reason, warnings: [] };
}

/**
 * NOI of the whole building rented at the stabilized (post-reno) rent by a paid manager, not owner-occupied, with
 * the year-1 operating statement of underwriting for a point valuation (vacancy, taxes, insurance, management,
 * maintenance, capex and the Cook compliance reserve); then value = NOI / cap rate. `rentMonthlyUsd` is the
 * whole-building monthly rent. The cross-check exists only beside a point ARV (income-hook.ts).
 */
export function incomeCrossCheck(a: {
  rentMonthlyUsd: number | null; units: number | null; taxAnnualUsd: number | null; segment: string | null;
  county: 'cook' | 'lake' | 'unknown'; isChicago: boolean; compArvUsd: number | null;
}): IncomeCheck {
  const cap = capRateFor(a.segment);
  const units = a.units !== null && a.units >= 1 ? a.units : 1;
  if (a.rentMonthlyUsd === null) return unpublished('rent_unknown', { cap_rate: cap });
  if (a.taxAnnualUsd === null) return unpublished('tax_unknown', { cap_rate: cap });
  if (cap === null) return unpublished('no_cap_rate_for_segment');
  if (a.county === 'unknown') return unpublished('county_unknown', { cap_rate: cap });
  const deal: Deal = {
    pointActionable: true, priceUsd: 0, arvUsd: 0, asIsUsd: null, rehabUsd: 0, units, rentMonthlyUsd: a.rentMonthlyUsd,
    taxAnnualUsd: a.taxAnnualUsd, hoaMonthlyUsd: 0, ownerOccupied: false, mgmtSelf: false, county: a.county, isChicago: a.isChicago, horizonYears: 1,
  };
  const noi = (operatingStatement(deal, units) as NonNullable<ReturnType<typeof operatingStatement>>).noiUsd;
  if (!(noi > 0)) return unpublished('noi_not_positive', { noi_annual_usd: noi, cap_rate: cap });
  const value = noi / cap;
  if (a.compArvUsd === null || !(a.compArvUsd > 0)) return unpublished('no_comp_arv', { noi_annual_usd: noi, cap_rate: cap });
  const divergence = Math.abs(value - a.compArvUsd) / a.compArvUsd;
  // Beyond the band the disagreement exceeds what the income approach's own error explains: the cap-rate convention
  // does not describe this property's market, so the number is no cross-check (and no evidence against the ARV).
  if (divergence > INCOME.v.plausible_max_divergence_frac) return unpublished('outside_plausible_band', { noi_annual_usd: noi, cap_rate: cap, divergence_frac: divergence });
  const warnings = divergence > INCOME.v.divergence_warn_frac ? [INCOME_DIVERGES_WARNING] : [];
  return { noi_implied_value: value, noi_annual_usd: noi, cap_rate: cap, divergence_frac: divergence, null_reason: null, warnings };
}
