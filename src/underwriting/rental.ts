// Hold and house-hack pro-formas: buy with long-term financing and rent (all units, or all but the owner's).
// House hack adds the owner's net housing cost and, for FHA 3-4 units, the self-sufficiency test.
import { UNDERWRITING } from '../registry/groups/underwriting.js';
import { loanFields, opFields } from './fields.js';
import { interestOverMonths, sizeLoan } from './financing.js';
import { carryingMonthly, cashflowArray, operatingStatement, type Deal, type OperatingStatement } from './operating.js';
import { nullEconomics, type Economics, type Loan, type LoanTerms } from './types.js';

const U = UNDERWRITING.v;

/**
 * FHA self-sufficiency (3-4 units): 75% of the gross rents of all units, the owner's included, must cover PITI
 * (principal, interest, MIP, taxes, insurance). Null when the test does not apply or rent is unknown.
 */
export function fhaSelfSufficiency(deal: Deal, loan: Loan): boolean | null {
  if (loan.terms.type !== 'fha_oo' || deal.units < U.fha_self_sufficiency_min_units || deal.rentMonthlyUsd === null) return null;
  const pitiMonthly = loan.monthlyPiUsd + loan.monthlyMiUsd + (deal.taxAnnualUsd + U.insurance_annual_per_unit_usd * deal.units) / 12;
  return U.fha_self_sufficiency_rent_frac * deal.rentMonthlyUsd >= pitiMonthly;
}

function houseHackFields(deal: Deal, op: OperatingStatement, loan: Loan): Partial<Economics> {
  // Owner's cost to live there: debt service plus every operating cost, less what the other units bring in.
  const ownerNetMonthly = (loan.annualDebtServiceUsd - op.noiUsd) / 12;
  const oneUnitRent = (deal.rentMonthlyUsd as number) / deal.units;
  return {
    owner_net_housing_cost_monthly: ownerNetMonthly,
    owner_cost_to_rent: oneUnitRent > 0 ? ownerNetMonthly / oneUnitRent : null,
    fha_self_sufficiency_pass: fhaSelfSufficiency(deal, loan),
  };
}

export function runRental(deal: Deal, terms: LoanTerms, holdMonths: number, houseHack: boolean): Economics {
  const rentedUnits = houseHack ? Math.max(0, deal.units - 1) : deal.units;
  const op = operatingStatement(deal, rentedUnits);
  const loan = sizeLoan(terms, { priceUsd: deal.priceUsd, rehabUsd: deal.rehabUsd, arvUsd: deal.arvUsd, asIsUsd: deal.asIsUsd, noiAnnualUsd: op ? op.noiUsd : null });
  const purchaseClosing = U.buy_closing_frac * deal.priceUsd;
  const holdingUsd = holdMonths * carryingMonthly(deal);
  const financingUsd = loan.pointsUsd + interestOverMonths(loan.loanUsd, terms.ratePct, terms.termMonths, holdMonths, terms.interestOnly) + holdMonths * loan.monthlyMiUsd;
  const cashInvested = deal.priceUsd + deal.rehabUsd + purchaseClosing + holdingUsd + financingUsd - loan.proceedsUsd;
  const ds = loan.annualDebtServiceUsd;
  const cashflow = op ? cashflowArray(op, ds, deal.horizonYears) : null;
  return {
    ...nullEconomics(),
    ...opFields(op),
    ...loanFields(deal, loan, loan.proceedsUsd, op),
    purchase_closing: purchaseClosing,
    holding_costs: holdingUsd,
    financing_costs: financingUsd,
    cash_invested: cashInvested,
    cash_on_cash: op && cashInvested > 0 ? (op.noiUsd - ds) / cashInvested : null,
    // Rental profit = cumulative pre-tax cashflow over the horizon (no appreciation, no principal paydown).
    profit: cashflow ? cashflow.reduce((a, y) => a + y.cashflow, 0) : null,
    hold_months: holdMonths,
    cashflow,
    ...(houseHack && op ? houseHackFields(deal, op, loan) : {}),
  };
}
