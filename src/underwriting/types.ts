// Shared underwriting types: strategies, financing types, the entry input and the economics record.
// The economics record is flat so "every economics field null" is one mechanical rule (see nullEconomics).

import type { FinancingType } from '../contracts/common.js';

export { STRATEGIES, FINANCING_TYPES, type Strategy, type FinancingType } from '../contracts/common.js';

export type County = 'cook' | 'lake' | 'unknown';

/** Loan terms after caller overrides. Rates in percent per year (the spec's `rate`), fractions elsewhere. */
export type LoanTerms = {
  type: FinancingType;
  ratePct: number;
  downFrac: number;
  termMonths: number;
  interestOnly: boolean;
  pointsFrac: number;
  upfrontMipFrac: number;
  /** Mortgage insurance (FHA MIP or PMI) as a fraction of the loan per year; 0 when none applies. */
  annualMiFrac: number;
};

/** One loan sized for a deal. Money in USD; monthly figures per month, annual per year. */
export type Loan = {
  terms: LoanTerms;
  /** Loan amount including any financed upfront MIP. */
  loanUsd: number;
  /** Cash the loan puts toward price and rehab (excludes financed MIP). */
  proceedsUsd: number;
  pointsUsd: number;
  monthlyPiUsd: number;
  monthlyMiUsd: number;
  annualDebtServiceUsd: number;
  /** The lender's ceiling for this deal (LTV/LTC/ARV and, for DSCR loans, the DSCR floor). */
  loanLimitUsd: number;
};

export const ECONOMICS_NUMBER_KEYS = [
  'purchase_price', 'rehab', 'loan_amount', 'loan_limit', 'down_payment', 'monthly_payment', 'annual_debt_service',
  'purchase_closing', 'sale_closing', 'holding_costs', 'financing_costs', 'cash_invested',
  'gross_rent_annual', 'vacancy', 'effective_gross_income', 'opex_taxes', 'opex_insurance', 'opex_management',
  'opex_maintenance', 'opex_capex', 'opex_compliance', 'opex_hoa', 'opex_total', 'noi', 'dscr', 'cash_on_cash',
  'max_offer', 'max_offer_70_rule', 'brrrr_offer', 'profit', 'profit_margin', 'refi_loan', 'cash_left_in',
  'cash_left_frac', 'owner_net_housing_cost_monthly', 'owner_cost_to_rent', 'hold_months', 'economics_factor',
] as const;
export type EconomicsNumberKey = (typeof ECONOMICS_NUMBER_KEYS)[number];

export type CashflowYear = {
  year: number;
  gross_rent: number;
  effective_gross_income: number;
  opex: number;
  noi: number;
  debt_service: number;
  cashflow: number;
};

/**
 * The pro-forma of one strategy. Not applicable fields are null (a flip has no NOI); when the valuation is not a
 * point every field is null. `max_offer` is the full-cost offer; `max_offer_70_rule` is the rule of thumb beside it.
 */
export type Economics = { [K in EconomicsNumberKey]: number | null } & {
  max_offer_basis: 'full_cost' | null;
  /**
   * `included`: cash invested and returns carry the rehab budget. `excluded_unknown`: the rehab is unknown and a hold is
   * computed at the purchase price alone (NOI, DSCR, cash-on-cash before any rehab); such a row is never scored.
   */
  rehab_basis: 'included' | 'excluded_unknown' | null;
  fha_self_sufficiency_pass: boolean | null;
  cashflow: CashflowYear[] | null;
};

function buildNullEconomics(): Economics {
  const e: Record<string, null> = {};
  for (const k of ECONOMICS_NUMBER_KEYS) e[k] = null;
  return { ...(e as { [K in EconomicsNumberKey]: null }), max_offer_basis: null, rehab_basis: null, fha_self_sufficiency_pass: null, cashflow: null };
}

// Built once: the hot path (bulk scoring) spreads a template instead of rebuilding 40 keys per row. Module-private
// and never handed out (callers get copies), so it is not frozen: V8 copies a frozen object's keys one by one on
// spread (about 10× slower), and every pro-forma starts from this spread.
const NULL_ECONOMICS: Economics = buildNullEconomics();

export function nullEconomics(): Economics {
  return { ...NULL_ECONOMICS };
}
