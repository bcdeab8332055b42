// Economics field blocks shared by the rental-type pro-formas (hold, house hack, BRRRR): the operating statement
// lines and the long-term loan lines, so each strategy only writes what is its own.
import type { Deal, OperatingStatement } from './operating.js';
import type { Economics, Loan } from './types.js';

/** The statement lines as economics fields; none when the statement is unknown (no rent). */
export function opFields(op: OperatingStatement | null): Partial<Economics> {
  if (!op) return {};
  return {
    gross_rent_annual: op.grossRentAnnualUsd,
    vacancy: op.vacancyUsd,
    effective_gross_income: op.egiUsd,
    opex_taxes: op.taxesUsd,
    opex_insurance: op.insuranceUsd,
    opex_management: op.managementUsd,
    opex_maintenance: op.maintenanceUsd,
    opex_capex: op.capexUsd,
    opex_compliance: op.complianceUsd,
    opex_hoa: op.hoaUsd,
    opex_total: op.opexTotalUsd,
    noi: op.noiUsd,
  };
}

/**
 * Price, rehab and the lines of the loan that carries the rental (the purchase loan for a hold, the refinance for
 * BRRRR). `purchaseProceedsUsd` is what the purchase loan put toward the price: the down payment is the rest.
 */
export function loanFields(deal: Deal, loan: Loan, purchaseProceedsUsd: number, op: OperatingStatement | null): Partial<Economics> {
  const ds = loan.annualDebtServiceUsd;
  return {
    purchase_price: deal.priceUsd,
    rehab: deal.rehabUsd,
    loan_amount: loan.loanUsd,
    loan_limit: loan.loanLimitUsd,
    down_payment: deal.priceUsd - Math.min(deal.priceUsd, purchaseProceedsUsd),
    monthly_payment: loan.monthlyPiUsd + loan.monthlyMiUsd,
    annual_debt_service: ds,
    dscr: op && ds > 0 ? op.noiUsd / ds : null,
  };
}
