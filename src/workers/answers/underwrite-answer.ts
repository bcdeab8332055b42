// The underwriting tools' answer (deep_underwrite_asset, v1 `underwrite`) from a worker's underwrite bundle, and the
// tool inputs mapped to a bundle request. Formatting only: every number comes from the valuation or the underwriting;
// economics, offers, returns, cashflow and strategy_scores stay null with unscored_reason unless the valuation is a point.
import { NO_CONFIDENT_COMPS_TEXT } from '../../contracts/common.js';
import type * as I from '../../contracts/inputs.js';
import type { ResolvedSubject } from '../../contracts/operation-deps.js';
import type { UnderwriteAnswer } from '../../contracts/tools.js';
import { DISCLOSURE } from '../../contracts/valuation.js';
import type { BundleRequest, UnderwriteBundle } from './bundle.js';
import { underwriteBlock } from './underwrite-response.js';
import { MODEL_VERSIONS } from '../../registry/versions.js';
import { rawStrategyScore } from '../../scoring/raw-score.js';
import { resolveWeights } from '../../scoring/weights.js';
import { STRATEGIES, type Strategy } from '../../underwriting/types.js';

/** deep_underwrite_asset: the subject with the door-resolved units/price; custom_assumptions go to underwriting as given. */
export function deepBundleRequest(i: I.DeepUnderwriteInput, s: ResolvedSubject): BundleRequest {
  return {
    input: { propertyId: i.property_id ?? null, address: i.address ?? null, lat: i.lat ?? null, lon: i.lon ?? null, units: s.units, price: s.priceUsd },
    strategy: i.strategy,
    assumptions: i.custom_assumptions,
    horizonYears: i.horizon_years,
    listingUnits: s.units,
  };
}

/** v1 `underwrite`: subject facts feed the valuation; pro-forma keys map onto the underwriting's custom assumptions. */
export function aliasBundleRequest(i: I.UnderwriteAliasInput, s: ResolvedSubject): BundleRequest {
  const rent = i.rent_override ?? i.rent;
  const ca = {
    ...(i.rehab !== undefined && { rehab_budget: i.rehab }),
    ...(rent !== undefined && { rent_override: rent }),
    ...(i.rate !== undefined && { rate: i.rate }),
    ...(i.down_pct !== undefined && { down_pct: i.down_pct }),
    ...(i.hold_months !== undefined && { hold_months: i.hold_months }),
    ...(i.financing_type !== undefined && { financing_type: i.financing_type }),
  };
  return {
    input: {
      address: i.address ?? null, lat: i.lat ?? null, lon: i.lon ?? null, units: s.units, price: s.priceUsd,
      propType: i.prop_type ?? null, beds: i.beds ?? null, sqft: i.sqft ?? null, yearBuilt: i.year_built ?? null,
      scope: i.scope ?? null, ownerOccupied: i.owner_occupied ?? null,
    },
    strategy: i.strategy,
    assumptions: ca,
    listingUnits: s.units,
    hoa: i.hoa ?? null,
    mgmtSelf: i.mgmt_self,
  };
}

/** The tool answer; `echo` is the accepted input, beneath the underwriting's resolved assumptions block. */
export function underwriteAnswerOf(b: UnderwriteBundle, strategy: Strategy, echo: Record<string, unknown>, weightsRaw?: unknown): UnderwriteAnswer {
  const v = b.valuation;
  const uw = b.underwriting;
  const block = underwriteBlock(v, uw);
  const point = block.arv !== null;
  const scored = point && block.unscored_reason === null;
  const e = uw.economics;
  const weights = resolveWeights(weightsRaw);
  const flip = uw.strategies.flip;
  return {
    as_of: v.as_of,
    model_versions: { ...MODEL_VERSIONS, model: v.model_version },
    confidence: v.arv.confidence_p10 ?? v.arv.confidence ?? null,
    disclosure: DISCLOSURE,
    refusal: v.arv.value === null && v.arv.low === null && v.arv.high === null ? { code: 'no_confident_comps', message: NO_CONFIDENT_COMPS_TEXT } : null,
    valuation: v,
    strategy,
    unscored_reason: block.unscored_reason,
    offers: point
      ? { max_offer: block.max_offer, max_offer_70_rule: flip.unscored_reason === null ? flip.economics.max_offer_70_rule : null, brrrr_offer: block.brrrr_offer, max_offer_basis: flip.unscored_reason === null ? flip.economics.max_offer_basis : null }
      : null,
    dscr: block.dscr,
    returns: scored
      ? { noi: e.noi, cash_on_cash: e.cash_on_cash, profit: e.profit, profit_margin: e.profit_margin, cash_invested: e.cash_invested, cash_left_in: e.cash_left_in, economics_factor: e.economics_factor, loan_limit: e.loan_limit }
      : null,
    // Raw per-strategy scores (inventory percentiles need the whole inventory; this is one subject).
    strategy_scores: point ? Object.fromEntries(STRATEGIES.map((st) => [st, rawStrategyScore(st, uw.strategies[st].economics, uw.strategies[st].unscored_reason, weights).raw])) : null,
    cashflow_projection: scored ? (e.cashflow as unknown as Record<string, unknown>[] | null) : null,
    assumptions: { ...echo, ...uw.assumptions },
  };
}
