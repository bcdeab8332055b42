// Caller custom_assumptions: the strict zod schema (spec bounds, extra keys rejected) and the echoed
// assumptions block listing every value used, caller-supplied or default.
import { CustomAssumptionsSchema } from '../contracts/assumptions.js';
import type { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { UNDERWRITING } from '../registry/groups/underwriting.js';
import type { FinancingType, LoanTerms, Strategy } from './types.js';

export { CustomAssumptionsSchema } from '../contracts/assumptions.js';
export type CustomAssumptions = z.infer<typeof CustomAssumptionsSchema>;

/** Parse caller assumptions; bad input is a `validation_failed` AppError listing the zod issues. */
export function parseCustomAssumptions(raw: unknown): CustomAssumptions {
  const r = CustomAssumptionsSchema.safeParse(raw ?? {});
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new AppError('validation_failed', `custom_assumptions invalid: ${issues.map((i) => `${i.path || '(root)'} ${i.message}`).join('; ')}`, { details: issues });
  }
  return r.data;
}

/** Default acquisition (flip, hold, house_hack) or refinance (brrrr) financing per strategy. */
export const DEFAULT_FINANCING: Record<Strategy, FinancingType> = {
  flip: 'hard_money',
  brrrr: 'dscr_loan',
  hold: 'conventional_investor',
  house_hack: 'fha_oo',
};

export function defaultHoldMonths(strategy: Strategy): number {
  const u = UNDERWRITING.v;
  return strategy === 'flip' ? u.flip_hold_months : strategy === 'brrrr' ? u.brrrr_hold_months : u.rental_hold_months;
}

export type AssumptionsBlock = {
  strategy: Strategy;
  caller_supplied: string[];
  purchase_price: number | null;
  purchase_price_source: 'custom_assumptions' | 'price' | null;
  rehab_budget: number | null;
  rehab_source: 'custom_assumptions' | 'rehab_estimate' | null;
  rent_monthly: number | null;
  rent_source: 'rent_override' | 'stabilized_post_reno' | 'as_is_contract' | null;
  financing_type: FinancingType;
  rate_pct: number;
  down_pct: number;
  term_months: number;
  interest_only: boolean;
  points_frac: number;
  mortgage_insurance_annual_frac: number;
  upfront_mip_frac: number;
  hold_months: number;
  horizon_years: number;
  mgmt_self: boolean;
  hoa_monthly: number;
  owner_occupied: boolean;
  tax_annual: number | null;
  buy_closing_frac: number;
  sell_closing_frac: number;
  refi_closing_frac: number;
  refi_ltv: number;
  insurance_annual_per_unit: number;
  vacancy_frac: number;
  management_frac: number;
  maintenance_frac: number;
  capex_frac: number;
  compliance_annual_per_unit: number;
  rent_growth_annual: number;
  opex_growth_annual: number;
  flip_rule_arv_frac: number;
  flip_target_margin_frac: number;
  brrrr_target_cash_left_frac: number;
  brrrr_acquisition_financing: FinancingType | null;
  registry_version: string;
};

export function echoTerms(t: LoanTerms): Pick<AssumptionsBlock, 'financing_type' | 'rate_pct' | 'down_pct' | 'term_months' | 'interest_only' | 'points_frac' | 'mortgage_insurance_annual_frac' | 'upfront_mip_frac'> {
  return {
    financing_type: t.type,
    rate_pct: t.ratePct,
    down_pct: t.downFrac,
    term_months: t.termMonths,
    interest_only: t.interestOnly,
    points_frac: t.pointsFrac,
    mortgage_insurance_annual_frac: t.annualMiFrac,
    upfront_mip_frac: t.upfrontMipFrac,
  };
}
