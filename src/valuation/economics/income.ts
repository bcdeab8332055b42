// Income-approach cross-check: noi_implied_value = NOI / cap rate (segment). It never sets ARV; it only raises
// `income_approach_diverges` when it is more than 25% away from the comp ARV. NOI is the underwriting statement's.
import type { VALUATION_WARNINGS } from '../../contracts/valuation.js';
import { INCOME } from '../../registry/groups/rent.js';
import { operatingStatement, type Deal } from '../../underwriting/operating.js';

export type IncomeCheck = {
  noi_implied_value: number | null;
  noi_annual_usd: number | null;
  cap_rate: number | null;
  /** abs(noi value − comp ARV) / comp ARV; null without either. */
  divergence_frac: number | null;
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

/**
 * NOI of the whole building rented at the stabilized (post-reno) rent by a paid manager, not owner-occupied, with
 * the year-1 operating statement of underwriting (vacancy, taxes, insurance, management, maintenance, capex); then
 * value = NOI / cap rate. `rentMonthlyUsd` is the whole-building monthly rent.
 */
export function incomeCrossCheck(a: {
  rentMonthlyUsd: number | null; units: number | null; taxAnnualUsd: number | null; segment: string | null;
  county: 'cook' | 'lake' | 'unknown'; isChicago: boolean; compArvUsd: number | null;
}): IncomeCheck {
  const cap = capRateFor(a.segment);
  const units = a.units !== null && a.units >= 1 ? a.units : 1;
  if (a.rentMonthlyUsd === null || a.taxAnnualUsd === null || cap === null || a.county === 'unknown') {
    return { noi_implied_value: null, noi_annual_usd: null, cap_rate: cap, divergence_frac: null, warnings: [] };
  }
  const deal: Deal = {
    pointActionable: false, priceUsd: 0, arvUsd: 0, asIsUsd: null, rehabUsd: 0, units, rentMonthlyUsd: a.rentMonthlyUsd,
    taxAnnualUsd: a.taxAnnualUsd, hoaMonthlyUsd: 0, ownerOccupied: false, mgmtSelf: false, county: a.county, isChicago: a.isChicago, horizonYears: 1,
  };
  const noi = (operatingStatement(deal, units) as NonNullable<ReturnType<typeof operatingStatement>>).noiUsd;
  const value = noi > 0 ? noi / cap : null;
  const divergence = value !== null && a.compArvUsd !== null && a.compArvUsd > 0 ? Math.abs(value - a.compArvUsd) / a.compArvUsd : null;
  const warnings = divergence !== null && divergence > INCOME.v.divergence_warn_frac ? [INCOME_DIVERGES_WARNING] : [];
  return { noi_implied_value: value, noi_annual_usd: noi, cap_rate: cap, divergence_frac: divergence, warnings };
}
