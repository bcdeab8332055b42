// The deal context every strategy runs on, the year-1 operating statement (EGI, opex lines, NOI) and the
// yearly cashflow array. The compliance reserve enters opex only for point-actionable valuations.
import { UNDERWRITING } from '../registry/groups/underwriting.js';
import type { CashflowYear, County } from './types.js';

const U = UNDERWRITING.v;

/** Everything a strategy needs, already resolved from the caller's assumptions and the valuation. USD. */
export type Deal = {
  pointActionable: boolean;
  priceUsd: number;
  arvUsd: number;
  /** As-is value when known (lenders' LTV basis is the lesser of price and as-is value). */
  asIsUsd: number | null;
  rehabUsd: number;
  units: number;
  /** Whole-building monthly rent for the strategy's rent basis; null when unknown. */
  rentMonthlyUsd: number | null;
  taxAnnualUsd: number;
  hoaMonthlyUsd: number;
  ownerOccupied: boolean;
  mgmtSelf: boolean;
  county: County;
  isChicago: boolean;
  horizonYears: number;
};

export type OperatingStatement = {
  grossRentAnnualUsd: number;
  vacancyUsd: number;
  egiUsd: number;
  taxesUsd: number;
  insuranceUsd: number;
  managementUsd: number;
  maintenanceUsd: number;
  capexUsd: number;
  complianceUsd: number;
  hoaUsd: number;
  opexTotalUsd: number;
  noiUsd: number;
};

/** Chicago RLTO or suburban Cook RTLO reserve per rented unit; owner-occupied buildings of ≤ 6 units are exempt. */
export function complianceReserveAnnual(deal: Deal, rentedUnits: number): number {
  if (!deal.pointActionable || deal.county !== 'cook' || rentedUnits <= 0) return 0;
  if (deal.ownerOccupied && deal.units <= U.compliance_owner_occ_exempt_max_units) return 0;
  const perUnit = deal.isChicago ? U.compliance_chicago_per_unit_usd : U.compliance_cook_per_unit_usd;
  return perUnit * rentedUnits;
}

/** Monthly carrying cost while not rented (rehab, seasoning, sale): taxes, insurance, HOA. */
export function carryingMonthly(deal: Deal): number {
  return (deal.taxAnnualUsd + U.insurance_annual_per_unit_usd * deal.units) / 12 + deal.hoaMonthlyUsd;
}

/**
 * Year-1 statement for `rentedUnits` of the building. Rent per unit is the building rent / units (units assumed
 * alike). Percent-of-rent lines: vacancy, maintenance, capex on gross rent; management on EGI unless self-managed.
 */
export function operatingStatement(deal: Deal, rentedUnits: number): OperatingStatement | null {
  if (deal.rentMonthlyUsd === null) return null;
  const gross = (12 * deal.rentMonthlyUsd * rentedUnits) / deal.units;
  const vacancy = U.vacancy_frac * gross;
  const egi = gross - vacancy;
  const lines = {
    taxesUsd: deal.taxAnnualUsd,
    insuranceUsd: U.insurance_annual_per_unit_usd * deal.units,
    managementUsd: deal.mgmtSelf ? 0 : U.management_frac * egi,
    maintenanceUsd: U.maintenance_frac * gross,
    capexUsd: U.capex_frac * gross,
    complianceUsd: complianceReserveAnnual(deal, rentedUnits),
    hoaUsd: 12 * deal.hoaMonthlyUsd,
  };
  const opex = Object.values(lines).reduce((a, b) => a + b, 0);
  return { grossRentAnnualUsd: gross, vacancyUsd: vacancy, egiUsd: egi, ...lines, opexTotalUsd: opex, noiUsd: egi - opex };
}

/** Year t (1-based): gross rent and EGI grow at the rent rate, opex at the opex rate; debt service is constant. */
export function cashflowArray(op: OperatingStatement, annualDebtServiceUsd: number, horizonYears: number): CashflowYear[] {
  const out: CashflowYear[] = [];
  for (let t = 1; t <= horizonYears; t++) {
    const rentG = Math.pow(1 + U.rent_growth_annual, t - 1);
    const opexG = Math.pow(1 + U.opex_growth_annual, t - 1);
    const egi = op.egiUsd * rentG;
    const opex = op.opexTotalUsd * opexG;
    const noi = egi - opex;
    out.push({ year: t, gross_rent: op.grossRentAnnualUsd * rentG, effective_gross_income: egi, opex, noi, debt_service: annualDebtServiceUsd, cashflow: noi - annualDebtServiceUsd });
  }
  return out;
}

/**
 * Largest x in [lo, hi] with slack(x) ≥ 0, for slack non-increasing and linear between the given kinks: evaluate
 * at the sorted kinks, find the first segment where slack turns negative, interpolate inside it (exact for
 * piecewise-linear slack). Null when slack(lo) < 0.
 */
export function maxWithSlack(slack: (x: number) => number, lo: number, hi: number, kinks: number[]): number | null {
  const pts = [lo, ...kinks.filter((k) => k > lo && k < hi).sort((a, b) => a - b), hi];
  let px = pts[0];
  let ps = slack(px);
  if (!(ps >= 0)) return null;
  for (let i = 1; i < pts.length; i++) {
    const x = pts[i];
    const sx = slack(x);
    if (sx < 0) return px + ((x - px) * ps) / (ps - sx);
    px = x;
    ps = sx;
  }
  return hi;
}
