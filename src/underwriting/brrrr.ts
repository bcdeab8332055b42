// BRRRR pro-forma: buy with short-term money, rehab, rent, refinance at refi LTV × ARV after the hold.
// `brrrr_offer` is the highest price whose cash left in after the refinance is at most the target share.
import { UNDERWRITING } from '../registry/groups/underwriting.js';
import { interestOverMonths, loanPriceKinks, sizeLoan, sizeRefinance, termsFor } from './financing.js';
import { carryingMonthly, cashflowArray, maxWithSlack, operatingStatement, type Deal } from './operating.js';
import { loanFields, opFields } from './fields.js';
import { nullEconomics, type Economics, type LoanTerms } from './types.js';

const U = UNDERWRITING.v;

/** BRRRR acquisition is always short-term hard money at its defaults; the caller's financing is the refinance. */
export const BRRRR_ACQUISITION_TERMS = (): LoanTerms => termsFor('hard_money');

export type BrrrrAtPrice = {
  acqProceedsUsd: number;
  purchaseClosingUsd: number;
  holdingUsd: number;
  acqFinancingUsd: number;
  refiClosingUsd: number;
  allInUsd: number;
  cashPeakUsd: number;
  cashLeftUsd: number;
};

/** all-in = price + rehab + buy closing + carrying over the hold + acquisition points and interest + refi closing. */
export function brrrrAtPrice(deal: Deal, holdMonths: number, refiLoanUsd: number, priceUsd: number): BrrrrAtPrice {
  const acqTerms = BRRRR_ACQUISITION_TERMS();
  const acq = sizeLoan(acqTerms, { priceUsd, rehabUsd: deal.rehabUsd, arvUsd: deal.arvUsd, asIsUsd: deal.asIsUsd, noiAnnualUsd: null });
  const purchaseClosingUsd = U.buy_closing_frac * priceUsd;
  const holdingUsd = holdMonths * carryingMonthly(deal);
  const acqFinancingUsd = acq.pointsUsd + interestOverMonths(acq.loanUsd, acqTerms.ratePct, acqTerms.termMonths, holdMonths, acqTerms.interestOnly);
  const refiClosingUsd = U.refi_closing_frac * refiLoanUsd;
  const allInUsd = priceUsd + deal.rehabUsd + purchaseClosingUsd + holdingUsd + acqFinancingUsd + refiClosingUsd;
  return {
    acqProceedsUsd: acq.proceedsUsd, purchaseClosingUsd, holdingUsd, acqFinancingUsd, refiClosingUsd, allInUsd,
    cashPeakUsd: allInUsd - refiClosingUsd - acq.proceedsUsd,
    cashLeftUsd: allInUsd - refiLoanUsd,
  };
}

export function runBrrrr(deal: Deal, refiTerms: LoanTerms, holdMonths: number): Economics {
  const op = operatingStatement(deal, deal.units);
  const refi = sizeRefinance(refiTerms, deal.arvUsd, U.brrrr_refi_ltv, op ? op.noiUsd : null);
  const b = brrrrAtPrice(deal, holdMonths, refi.loanUsd, deal.priceUsd);
  const target = U.brrrr_target_cash_left_frac;
  const kinks = loanPriceKinks(BRRRR_ACQUISITION_TERMS(), { rehabUsd: deal.rehabUsd, arvUsd: deal.arvUsd, asIsUsd: deal.asIsUsd, noiAnnualUsd: null });
  const offer = maxWithSlack((x) => {
    const r = brrrrAtPrice(deal, holdMonths, refi.loanUsd, x);
    return target * r.allInUsd - r.cashLeftUsd;
  }, 0, deal.arvUsd, kinks);
  const ds = refi.annualDebtServiceUsd;
  const cashflow = op ? cashflowArray(op, ds, deal.horizonYears) : null;
  return {
    ...nullEconomics(),
    ...opFields(op),
    ...loanFields(deal, refi, b.acqProceedsUsd, op),
    purchase_closing: b.purchaseClosingUsd,
    holding_costs: b.holdingUsd,
    financing_costs: b.acqFinancingUsd + b.refiClosingUsd,
    cash_invested: b.cashPeakUsd,
    refi_loan: refi.loanUsd,
    cash_left_in: b.cashLeftUsd,
    cash_left_frac: b.cashLeftUsd / b.allInUsd,
    // Cash-on-cash is undefined (infinite) when the refinance returns all the cash: null, never a made-up number.
    cash_on_cash: op && b.cashLeftUsd > 0 ? (op.noiUsd - ds) / b.cashLeftUsd : null,
    brrrr_offer: offer,
    profit: deal.arvUsd - b.allInUsd,
    profit_margin: (deal.arvUsd - b.allInUsd) / deal.arvUsd,
    hold_months: holdMonths,
    cashflow,
  };
}
