// Flip pro-forma: buy, rehab, hold, sell at ARV. Reports both offers: `max_offer` (full cost to a target margin)
// and `max_offer_70_rule` (0.70 × ARV − rehab) beside it.
import { UNDERWRITING } from '../registry/groups/underwriting.js';
import { interestOverMonths, loanPriceKinks, sizeLoan } from './financing.js';
import { carryingMonthly, maxWithSlack, type Deal } from './operating.js';
import { nullEconomics, type Economics, type LoanTerms } from './types.js';

const U = UNDERWRITING.v;

export type FlipAtPrice = {
  loanUsd: number;
  loanLimitUsd: number;
  proceedsUsd: number;
  monthlyPaymentUsd: number;
  annualDebtServiceUsd: number;
  purchaseClosingUsd: number;
  saleClosingUsd: number;
  holdingUsd: number;
  financingUsd: number;
  cashInvestedUsd: number;
  profitUsd: number;
};

/** profit = ARV − price − rehab − buy closing − sale closing − holding − (points + interest over the hold). */
export function flipAtPrice(deal: Deal, terms: LoanTerms, holdMonths: number, priceUsd: number): FlipAtPrice {
  const loan = sizeLoan(terms, { priceUsd, rehabUsd: deal.rehabUsd, arvUsd: deal.arvUsd, asIsUsd: deal.asIsUsd, noiAnnualUsd: null });
  const purchaseClosingUsd = U.buy_closing_frac * priceUsd;
  const saleClosingUsd = U.sell_closing_frac * deal.arvUsd;
  const holdingUsd = holdMonths * carryingMonthly(deal);
  const interestUsd = interestOverMonths(loan.loanUsd, terms.ratePct, terms.termMonths, holdMonths, terms.interestOnly) + holdMonths * loan.monthlyMiUsd;
  const financingUsd = loan.pointsUsd + interestUsd;
  const profitUsd = deal.arvUsd - priceUsd - deal.rehabUsd - purchaseClosingUsd - saleClosingUsd - holdingUsd - financingUsd;
  const cashInvestedUsd = priceUsd + deal.rehabUsd + purchaseClosingUsd + holdingUsd + financingUsd - loan.proceedsUsd;
  return {
    loanUsd: loan.loanUsd, loanLimitUsd: loan.loanLimitUsd, proceedsUsd: loan.proceedsUsd,
    monthlyPaymentUsd: loan.monthlyPiUsd + loan.monthlyMiUsd, annualDebtServiceUsd: loan.annualDebtServiceUsd,
    purchaseClosingUsd, saleClosingUsd, holdingUsd, financingUsd, cashInvestedUsd, profitUsd,
  };
}

/** Highest price at which the full flip pro-forma still earns target margin × ARV; null when no price ≥ 0 does. */
export function flipMaxOffer(deal: Deal, terms: LoanTerms, holdMonths: number): number | null {
  const target = U.flip_target_margin_frac * deal.arvUsd;
  const kinks = loanPriceKinks(terms, { rehabUsd: deal.rehabUsd, arvUsd: deal.arvUsd, asIsUsd: deal.asIsUsd, noiAnnualUsd: null });
  return maxWithSlack((x) => flipAtPrice(deal, terms, holdMonths, x).profitUsd - target, 0, deal.arvUsd, kinks);
}

export function flip70RuleOffer(deal: Deal): number {
  return U.flip_rule_arv_frac * deal.arvUsd - deal.rehabUsd;
}

export function runFlip(deal: Deal, terms: LoanTerms, holdMonths: number): Economics {
  const f = flipAtPrice(deal, terms, holdMonths, deal.priceUsd);
  return {
    ...nullEconomics(),
    purchase_price: deal.priceUsd,
    rehab: deal.rehabUsd,
    loan_amount: f.loanUsd,
    loan_limit: f.loanLimitUsd,
    down_payment: deal.priceUsd - Math.min(deal.priceUsd, f.proceedsUsd),
    monthly_payment: f.monthlyPaymentUsd,
    annual_debt_service: f.annualDebtServiceUsd,
    purchase_closing: f.purchaseClosingUsd,
    sale_closing: f.saleClosingUsd,
    holding_costs: f.holdingUsd,
    financing_costs: f.financingUsd,
    cash_invested: f.cashInvestedUsd,
    max_offer: flipMaxOffer(deal, terms, holdMonths),
    max_offer_70_rule: flip70RuleOffer(deal),
    max_offer_basis: 'full_cost',
    profit: f.profitUsd,
    profit_margin: f.profitUsd / deal.arvUsd,
    hold_months: holdMonths,
  };
}
