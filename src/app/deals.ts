// One saved deal (a favorite) with its current valuation and score. A favorite naming a listing the daily run scored
// under the current model is read from that stored row (the number every other door shows for it); anything else is
// valued now by the engine, as deep_underwrite_asset values it. A deal that cannot be valued says why, alone.
import type { DealItem, DealValuation } from '../contracts/private.js';
import { DeepUnderwriteInputSchema } from '../contracts/inputs.js';
import type { UnderwriteAnswer } from '../contracts/tools.js';
import type { Valuation } from '../contracts/valuation.js';
import { AppError, isAppError } from '../errors/app-error.js';
import type { Favorite } from '../events/user-state.js';
import type { ScoredListing } from '../listings/index.js';
import { MODEL_VERSION } from '../registry/versions.js';
import { dealScore } from '../scoring/percentile.js';
import type { Store } from '../store/store.js';
import type { Engine } from './engine.js';

/** Stored listing rows the current model scored, by listing id. */
export function currentListingRows(store: Store): ReadonlyMap<string, ScoredListing> {
  const rows = store.getListings() as ScoredListing[];
  return new Map(rows.filter((r) => r.scored_at !== undefined && r.model_version === MODEL_VERSION).map((r) => [r.listing_id, r]));
}

const blank = (fav: Favorite): Omit<DealItem, 'source'> => ({
  favorite: { ...fav }, listing_id: null, as_of: null, model_version: null, valuation: null, strategy_scores: null, deal_score: null,
  best_strategy: null, unscored_reason: null, refusal: null, error: null,
});

function fromRow(fav: Favorite, r: ScoredListing): DealItem {
  const v = r.valuation;
  const valuation: DealValuation = {
    outcome: v.outcome, point_actionable: v.point_actionable, arv_value: v.point_actionable ? v.arv_value : null, arv_low: v.arv_low, arv_high: v.arv_high,
    arv_method: v.arv_method, method_tier: v.method_tier, confidence: v.arv_confidence, value_as_is: v.value_as_is, inputs_hash: v.inputs_hash,
  };
  return {
    ...blank(fav), source: 'listing_row', listing_id: r.listing_id, as_of: r.scored_at, model_version: r.model_version, valuation,
    strategy_scores: r.strategy_scores, deal_score: r.deal_score, best_strategy: r.best_strategy, unscored_reason: v.unscored_reason,
  };
}

function fromAnswer(fav: Favorite, a: UnderwriteAnswer): DealItem {
  const v = a.valuation as (Valuation & { display?: { outcome?: string } }) | null;
  const outcome = v?.display?.outcome ?? null;
  const point = outcome === 'point' && v?.arv.value !== null && v?.arv.value !== undefined;
  const valuation: DealValuation | null = v && {
    outcome, point_actionable: point, arv_value: point ? v.arv.value : null, arv_low: v.arv.low, arv_high: v.arv.high, arv_method: v.arv.method,
    method_tier: v.arv.method_tier, confidence: v.arv.confidence_p10 ?? v.arv.confidence, value_as_is: v.value_as_is?.value ?? null, inputs_hash: v.inputs_hash,
  };
  const d = a.strategy_scores ? dealScore(a.strategy_scores, 'point') : null;
  return {
    ...blank(fav), source: 'engine', as_of: a.as_of, model_version: v?.model_version ?? a.model_versions.model, valuation,
    strategy_scores: a.strategy_scores, deal_score: d?.deal_score ?? null, best_strategy: d?.best_strategy ?? null,
    unscored_reason: a.unscored_reason === null ? null : String(a.unscored_reason), refusal: a.refusal,
  };
}

/** The deal of one favorite; a failure to value it (unknown property, no engine) is this deal's error, not the page's. */
export async function dealOf(fav: Favorite, rows: ReadonlyMap<string, ScoredListing>, engine: Engine | undefined): Promise<DealItem> {
  const row = fav.property_id === null ? undefined : rows.get(fav.property_id);
  if (row) return fromRow(fav, row);
  try {
    if (!engine) throw new AppError('not_implemented', 'valuing a deal needs the valuation engine, which is not wired into this service');
    const parsed = DeepUnderwriteInputSchema.safeParse(fav.property_id !== null ? { property_id: fav.property_id } : { address: fav.address });
    if (!parsed.success) throw new AppError('validation_failed', 'this favorite names no property the engine can value');
    const input = parsed.data;
    return fromAnswer(fav, (await engine.answer('deep_underwrite_asset', input)) as UnderwriteAnswer);
  } catch (e) {
    if (!isAppError(e)) throw e;
    return { ...blank(fav), source: 'error', error: { code: e.code, message: e.expose ? e.message : e.code } };
  }
}
