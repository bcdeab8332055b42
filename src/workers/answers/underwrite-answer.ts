// The underwriting tools' answer (deep_underwrite_asset, v1 `underwrite`) from an Appraisal, and the tool inputs
// mapped to an appraisal request. Formatting only: every number comes from the valuation, the underwriting or the
// inventory placement; economics stay null with unscored_reason unless the valuation is a point.
import { NO_CONFIDENT_COMPS_TEXT, type Refusal } from '../../contracts/common.js';
import type { CustomAssumptions } from '../../underwriting/assumptions.js';
import type * as I from '../../contracts/inputs.js';
import type { UnderwriteAnswer } from '../../contracts/tools.js';
import type { Returns } from '../../contracts/underwrite.js';
import { DISCLOSURE } from '../../contracts/valuation.js';
import { MODEL_VERSIONS } from '../../registry/versions.js';
import type { Economics, Strategy } from '../../underwriting/types.js';
import type { AppraiseRequest, Appraisal } from './appraise.js';
import { holdFigures, missingInputsOf, underwriteBlock } from './underwrite-response.js';

/** deep_underwrite_asset: the caller's purchase price (custom_assumptions) is the subject's price, as /api/underwrite's `price` is. */
export function deepRequest(i: I.DeepUnderwriteInput): AppraiseRequest {
  return {
    subject: {
      propertyId: i.property_id ?? null, address: i.address ?? null, lat: i.lat ?? null, lon: i.lon ?? null, units: i.units ?? null,
      price: i.custom_assumptions?.purchase_price ?? null,
    },
    underwriting: { strategy: i.strategy, assumptions: i.custom_assumptions, horizonYears: i.horizon_years },
  };
}

/** The pro-forma parameters of the v1 `underwrite` tool (and of GET /api/underwrite) as custom assumptions. */
export function proFormaAssumptions(i: Pick<I.UnderwriteAliasInput, 'rehab' | 'rent' | 'rent_override' | 'rate' | 'down_pct' | 'hold_months' | 'financing_type'>): CustomAssumptions {
  const rent = i.rent_override ?? i.rent;
  return {
    ...(i.rehab !== undefined && { rehab_budget: i.rehab }),
    ...(rent !== undefined && { rent_override: rent }),
    ...(i.rate !== undefined && { rate: i.rate }),
    ...(i.down_pct !== undefined && { down_pct: i.down_pct }),
    ...(i.hold_months !== undefined && { hold_months: i.hold_months }),
    ...(i.financing_type !== undefined && { financing_type: i.financing_type }),
  };
}

/** v1 `underwrite`: subject facts feed the valuation; pro-forma keys map onto the underwriting's custom assumptions. */
export function aliasRequest(i: I.UnderwriteAliasInput): AppraiseRequest {
  const assumptions = proFormaAssumptions(i);
  return {
    subject: {
      address: i.address ?? null, lat: i.lat ?? null, lon: i.lon ?? null, units: i.units ?? null, price: i.price ?? null,
      propType: i.prop_type ?? null, beds: i.beds ?? null, sqft: i.sqft ?? null, yearBuilt: i.year_built ?? null,
      scope: i.scope ?? null, ownerOccupied: i.owner_occupied ?? null,
    },
    underwriting: { strategy: i.strategy, assumptions, hoa: i.hoa ?? null, mgmtSelf: i.mgmt_self, weights: i.weights },
    requirePrice: true,
  };
}

/** The refusal as a complete tool answer: every economics field null, the accepted inputs echoed. */
export function refusalAnswer(refusal: Refusal, strategy: Strategy, echo: Record<string, unknown>, asOf: string): UnderwriteAnswer {
  return {
    as_of: asOf, model_versions: { ...MODEL_VERSIONS }, confidence: null, disclosure: DISCLOSURE, refusal, valuation: null, strategy,
    unscored_reason: null, missing_inputs: [], offers: null, dscr: null, returns: null, strategy_scores: null, scoring: null, cashflow_projection: null, assumptions: echo,
  };
}

function returnsOf(e: Economics): Returns {
  return {
    noi: e.noi, dscr: e.dscr, cash_on_cash: e.cash_on_cash, profit: e.profit, profit_margin: e.profit_margin, cash_invested: e.cash_invested,
    cash_left_in: e.cash_left_in, economics_factor: e.economics_factor, loan_limit: e.loan_limit, rehab_basis: e.rehab_basis,
  };
}

/**
 * The tool answer; `echo` is the accepted input, beneath the underwriting's resolved assumptions block. Without a
 * rehab figure the chosen strategy is unscored, and the hold at the purchase price (NOI, DSCR, cash-on-cash) is what
 * `returns` carries, labeled rehab_basis `excluded_unknown`.
 */
export function underwriteAnswerOf(a: Appraisal, strategy: Strategy, echo: Record<string, unknown>, asOf: string): UnderwriteAnswer {
  const v = a.valuation;
  const uw = a.underwriting;
  if (a.refusal || !v || !uw) return refusalAnswer(a.refusal ?? { code: 'no_confident_comps', message: NO_CONFIDENT_COMPS_TEXT }, strategy, echo, asOf);
  const block = underwriteBlock(v, uw, a.scores);
  const point = block.arv !== null;
  const scored = point && block.unscored_reason === null;
  const e = uw.economics;
  const flip = uw.strategies.flip;
  const hold = holdFigures(uw);
  return {
    as_of: v.as_of,
    model_versions: { ...MODEL_VERSIONS, model: v.model_version },
    confidence: v.arv.confidence_p10 ?? v.arv.confidence ?? null,
    disclosure: DISCLOSURE,
    refusal: v.arv.value === null && v.arv.low === null && v.arv.high === null ? { code: 'no_confident_comps', message: NO_CONFIDENT_COMPS_TEXT } : null,
    valuation: v,
    strategy,
    unscored_reason: block.unscored_reason,
    missing_inputs: point ? missingInputsOf(block.unscored_reason) : [],
    offers: point
      ? { max_offer: block.max_offer, max_offer_70_rule: flip.unscored_reason === null ? flip.economics.max_offer_70_rule : null, brrrr_offer: block.brrrr_offer, max_offer_basis: flip.unscored_reason === null ? flip.economics.max_offer_basis : null }
      : null,
    dscr: block.dscr,
    returns: scored ? returnsOf(e) : point && hold?.rehab_basis === 'excluded_unknown' ? returnsOf(uw.strategies.hold.economics) : null,
    strategy_scores: point ? (a.scores?.percentiles ?? null) : null,
    scoring: point ? a.scores : null,
    cashflow_projection: scored ? e.cashflow : null,
    assumptions: { ...echo, ...uw.assumptions },
  };
}
