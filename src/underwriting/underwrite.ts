// Underwriting entry: resolves assumptions, runs every strategy's pro-forma, and returns the chosen one.
// When the valuation is not a point (ladder.ts says so) nothing is computed: every economics field is null.
import { AppError } from '../errors/app-error.js';
import { UNDERWRITING } from '../registry/groups/underwriting.js';
import { economicsFactor } from '../scoring/gates.js';
import { DEFAULT_FINANCING, defaultHoldMonths, echoTerms, parseCustomAssumptions, type AssumptionsBlock, type CustomAssumptions } from './assumptions.js';
import { BRRRR_ACQUISITION_TERMS, runBrrrr } from './brrrr.js';
import { termsFor } from './financing.js';
import { runFlip } from './flip.js';
import type { Deal } from './operating.js';
import { runRental } from './rental.js';
import { STRATEGIES, nullEconomics, type County, type Economics, type FinancingType, type Strategy } from './types.js';

const U = UNDERWRITING.v;

export type UnderwriteInput = {
  /** From valuation/ladder.ts; the only switch that unlocks economics. */
  pointActionable: boolean;
  unscoredReason: string | null;
  arv: number | null;
  asIsValue: number | null;
  price: number | null;
  units: number;
  /** Whole-building as-is contract rent per month. */
  rentMonthly: number | null;
  /** Whole-building stabilized post-renovation rent per month (BRRRR and flip-to-rent basis); optional. */
  rentStabilizedMonthly?: number | null;
  rentS8: number | null;
  /** Annual tax bill for an investor owner (tax.predictive_annual); taxAnnualOwnerOccupied for the house hack. */
  taxAnnual: number | null;
  taxAnnualOwnerOccupied?: number | null;
  rehab: number | null;
  strategy: Strategy;
  financing?: FinancingType | null;
  /** Raw custom_assumptions; validated strictly here. */
  assumptions?: unknown;
  horizonYears?: number;
  county: County;
  isChicago: boolean;
  /** Monthly HOA dues. */
  hoa?: number | null;
  ownerOccupied?: boolean;
  mgmtSelf?: boolean;
};

export type StrategyOutcome = { economics: Economics; unscored_reason: string | null };

export type UnderwriteResult = {
  strategy: Strategy;
  scored: boolean;
  unscored_reason: string | null;
  assumptions: AssumptionsBlock;
  economics: Economics;
  strategies: Record<Strategy, StrategyOutcome>;
  /** Section 8 (SAFMR) rent minus the rent basis, per month; null when either is unknown or not a point. */
  s8_gap_monthly: number | null;
};

function validateShape(input: UnderwriteInput): number {
  if (!Number.isInteger(input.units) || input.units < 1 || input.units > 4) throw new AppError('validation_failed', 'units must be an integer 1-4');
  const h = input.horizonYears ?? U.horizon_years_default;
  const [lo, hi] = U.horizon_years_bounds;
  if (!Number.isInteger(h) || h < lo || h > hi) throw new AppError('validation_failed', `horizon_years must be an integer ${lo}-${hi}`);
  if (input.hoa !== undefined && input.hoa !== null && !(input.hoa >= 0)) throw new AppError('validation_failed', 'hoa must be >= 0');
  return h;
}

function rentBasis(strategy: Strategy, input: UnderwriteInput, ca: CustomAssumptions): { rent: number | null; source: AssumptionsBlock['rent_source'] } {
  if (ca.rent_override !== undefined) return { rent: ca.rent_override, source: 'rent_override' };
  const stab = input.rentStabilizedMonthly ?? null;
  if (strategy === 'brrrr' && stab !== null) return { rent: stab, source: 'stabilized_post_reno' };
  return input.rentMonthly === null ? { rent: null, source: null } : { rent: input.rentMonthly, source: 'as_is_contract' };
}

type Plan = { financing: FinancingType; holdMonths: number; ratePct?: number; downFrac?: number };

/** The caller's financing, rate, down payment and hold apply to the chosen strategy; the others run at defaults. */
function planFor(strategy: Strategy, input: UnderwriteInput, ca: CustomAssumptions): Plan {
  if (strategy !== input.strategy) return { financing: DEFAULT_FINANCING[strategy], holdMonths: defaultHoldMonths(strategy) };
  return {
    financing: ca.financing_type ?? input.financing ?? DEFAULT_FINANCING[strategy],
    holdMonths: ca.hold_months ?? defaultHoldMonths(strategy),
    ratePct: ca.rate,
    downFrac: ca.down_pct,
  };
}

function missingReason(input: UnderwriteInput, price: number | null, rehab: number | null, tax: number | null): string | null {
  if (!input.pointActionable) return input.unscoredReason ?? 'valuation_not_point';
  if (input.arv === null || !(input.arv > 0)) return 'arv_missing';
  if (price === null) return 'price_required';
  if (rehab === null) return 'rehab_unknown';
  if (tax === null) return 'tax_unknown';
  return null;
}

/**
 * Inputs a strategy cannot do without, named as the caller can supply them (the unscored answer lists them): rehab is
 * a budget (`rehab`) or the living area the estimate needs (`sqft`).
 */
export const MISSING_INPUTS: Readonly<Record<string, readonly string[]>> = {
  rehab_unknown: ['rehab', 'sqft'],
  price_required: ['price'],
  tax_unknown: ['price'],
  rent_unknown: ['rent_override'],
};

function runStrategy(strategy: Strategy, input: UnderwriteInput, ca: CustomAssumptions, horizonYears: number): StrategyOutcome {
  const price = ca.purchase_price ?? input.price;
  const rehab = ca.rehab_budget ?? input.rehab;
  const houseHack = strategy === 'house_hack';
  const tax = houseHack ? input.taxAnnualOwnerOccupied ?? input.taxAnnual : input.taxAnnual;
  const reason = missingReason(input, price, rehab, tax);
  // A hold rents the building as it stands: without a rehab figure its NOI, DSCR and cash-on-cash at the purchase
  // price are still known (and shown), but a return that leaves out work the building may need is never scored.
  const holdAtPrice = reason === 'rehab_unknown' && strategy === 'hold' && missingReason(input, price, 0, tax) === null;
  if (reason !== null && !holdAtPrice) return { economics: nullEconomics(), unscored_reason: reason };
  const plan = planFor(strategy, input, ca);
  const deal: Deal = {
    pointActionable: true,
    priceUsd: price as number, arvUsd: input.arv as number, asIsUsd: input.asIsValue, rehabUsd: holdAtPrice ? 0 : (rehab as number), units: input.units,
    rentMonthlyUsd: rentBasis(strategy, input, ca).rent, taxAnnualUsd: tax as number, hoaMonthlyUsd: input.hoa ?? 0,
    ownerOccupied: houseHack || (input.ownerOccupied ?? false), mgmtSelf: input.mgmtSelf ?? houseHack,
    county: input.county, isChicago: input.isChicago, horizonYears,
  };
  const terms = termsFor(plan.financing, { ratePct: plan.ratePct, downFrac: plan.downFrac });
  const e = strategy === 'flip' ? runFlip(deal, terms, plan.holdMonths)
    : strategy === 'brrrr' ? runBrrrr(deal, terms, plan.holdMonths)
    : runRental(deal, terms, plan.holdMonths, houseHack);
  if (holdAtPrice) return { economics: { ...e, economics_factor: null, rehab_basis: 'excluded_unknown' }, unscored_reason: 'rehab_unknown' };
  const needsRent = strategy !== 'flip' && deal.rentMonthlyUsd === null;
  return { economics: { ...e, rehab_basis: 'included', economics_factor: economicsFactor(strategy, e) }, unscored_reason: needsRent ? 'rent_unknown' : null };
}

/** Every strategy's pro-forma, without the assumptions echo (bulk scoring reads only these); same checks as underwrite. */
export function underwriteStrategies(input: UnderwriteInput): Record<Strategy, StrategyOutcome> {
  return runStrategies(input, validateShape(input), parseCustomAssumptions(input.assumptions));
}

function runStrategies(input: UnderwriteInput, horizonYears: number, ca: CustomAssumptions): Record<Strategy, StrategyOutcome> {
  const out = {} as Record<Strategy, StrategyOutcome>;
  for (const s of STRATEGIES) out[s] = runStrategy(s, input, ca, horizonYears);
  return out;
}

export function underwrite(input: UnderwriteInput): UnderwriteResult {
  const horizonYears = validateShape(input);
  const ca = parseCustomAssumptions(input.assumptions);
  const strategies = runStrategies(input, horizonYears, ca);
  const chosen = strategies[input.strategy];
  const rent = rentBasis(input.strategy, input, ca).rent;
  return {
    strategy: input.strategy,
    scored: chosen.unscored_reason === null,
    unscored_reason: chosen.unscored_reason,
    assumptions: assumptionsBlock(input, ca, horizonYears),
    economics: chosen.economics,
    strategies,
    s8_gap_monthly: input.pointActionable && input.rentS8 !== null && rent !== null ? input.rentS8 - rent : null,
  };
}

function assumptionsBlock(input: UnderwriteInput, ca: CustomAssumptions, horizonYears: number): AssumptionsBlock {
  const plan = planFor(input.strategy, input, ca);
  const terms = termsFor(plan.financing, { ratePct: plan.ratePct, downFrac: plan.downFrac });
  const rent = rentBasis(input.strategy, input, ca);
  const houseHack = input.strategy === 'house_hack';
  const price = ca.purchase_price ?? input.price;
  const rehab = ca.rehab_budget ?? input.rehab;
  return {
    strategy: input.strategy,
    caller_supplied: Object.keys(ca).sort(),
    purchase_price: price,
    purchase_price_source: ca.purchase_price !== undefined ? 'custom_assumptions' : input.price !== null ? 'price' : null,
    rehab_budget: rehab,
    rehab_source: ca.rehab_budget !== undefined ? 'custom_assumptions' : input.rehab !== null ? 'rehab_estimate' : null,
    rent_monthly: rent.rent,
    rent_source: rent.source,
    ...echoTerms(terms),
    hold_months: plan.holdMonths,
    horizon_years: horizonYears,
    mgmt_self: input.mgmtSelf ?? houseHack,
    hoa_monthly: input.hoa ?? 0,
    owner_occupied: houseHack || (input.ownerOccupied ?? false),
    tax_annual: houseHack ? input.taxAnnualOwnerOccupied ?? input.taxAnnual : input.taxAnnual,
    buy_closing_frac: U.buy_closing_frac,
    sell_closing_frac: U.sell_closing_frac,
    refi_closing_frac: U.refi_closing_frac,
    refi_ltv: U.brrrr_refi_ltv,
    insurance_annual_per_unit: U.insurance_annual_per_unit_usd,
    vacancy_frac: U.vacancy_frac,
    management_frac: U.management_frac,
    maintenance_frac: U.maintenance_frac,
    capex_frac: U.capex_frac,
    compliance_annual_per_unit: input.county !== 'cook' ? 0 : input.isChicago ? U.compliance_chicago_per_unit_usd : U.compliance_cook_per_unit_usd,
    rent_growth_annual: U.rent_growth_annual,
    opex_growth_annual: U.opex_growth_annual,
    flip_rule_arv_frac: U.flip_rule_arv_frac,
    flip_target_margin_frac: U.flip_target_margin_frac,
    brrrr_target_cash_left_frac: U.brrrr_target_cash_left_frac,
    brrrr_acquisition_financing: input.strategy === 'brrrr' ? BRRRR_ACQUISITION_TERMS().type : null,
    registry_version: `${UNDERWRITING.name}@${UNDERWRITING.version}`,
  };
}
