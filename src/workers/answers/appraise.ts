// The one path from a request to its numbers, run where the valuation context lives (a worker): resolve the subject,
// refuse what cannot be valued (unknown units, a missing price), serve the valuation through the comp-source chain,
// then underwrite, report risk and place the strategy scores in the current inventory. Every door's answer is a view
// of one Appraisal; no door values, underwrites or scores on its own.
import type { Refusal } from '../../contracts/common.js';
import type { Subject } from '../../contracts/subject.js';
import type { Valuation } from '../../contracts/valuation.js';
import type { ListingRecord } from '../../ingest/loaders/listings.js';
import { MODEL_VERSION } from '../../registry/versions.js';
import { riskInputsOf, riskOfValuation, type RiskExtras } from '../../risk/index.js';
import { riskReport, type RiskReport } from '../../risk/report.js';
import { placeInPopulation, sortedPopulation } from '../../scoring/percentile.js';
import { rawStrategyScore } from '../../scoring/raw-score.js';
import { isChicagoTract, underwriteInputOf } from '../../scoring/score-subject.js';
import { resolveWeights } from '../../scoring/weights.js';
import { underwrite, type UnderwriteResult } from '../../underwriting/underwrite.js';
import { STRATEGIES, type FinancingType, type Strategy } from '../../underwriting/types.js';
import { pointArvUsd } from '../../valuation/artifact.js';
import { serveValuation, type ServeFallbackConfig } from '../../valuation/fallback/serve.js';
import { resolveSubject } from '../../valuation/subject/subject.js';
import { asOfOf, taxOfUnvalued, type CompEvidence, type ValueInput } from '../../valuation/value.js';
import type { ValuationContext } from '../../valuation/value-context.js';

export type UnderwriteRequest = {
  strategy: Strategy;
  financing?: FinancingType | null;
  /** Raw custom_assumptions (validated strictly by underwriting). */
  assumptions?: unknown;
  horizonYears?: number;
  /** Monthly HOA dues and self-management (v1 `underwrite` tool parameters). */
  hoa?: number | null;
  mgmtSelf?: boolean;
  /** Caller factor weights of the raw scores (v1 `underwrite`); default weights otherwise. */
  weights?: unknown;
};

export type AppraiseRequest = {
  subject: ValueInput;
  underwriting?: UnderwriteRequest | null;
  risk?: RiskExtras | null;
  /** The v1 `underwrite` tool needs a positive price (the caller's or a listing's): refuse without one. */
  requirePrice?: boolean;
  /** The caller's name for the unit count, which a units_required refusal asks for (risk_report: listing_units). */
  unitsParam?: string;
};

/** Per-strategy scores of one subject: raw (gated, weighted), the inventory percentile, and why either is null. */
export type StrategyScores = {
  raw: Record<Strategy, number | null>;
  percentiles: Record<Strategy, number | null>;
  null_reasons: Record<Strategy, string | null>;
  /** Scored rows of the current inventory per strategy (the population of the percentile) and the run they come from. */
  population: Record<Strategy, number>;
  listings_run: string | null;
};

export type Appraisal = {
  refusal: Refusal | null;
  /** The resolved subject (null only when a refusal came before resolution could name one). */
  subject: Subject | null;
  valuation: Valuation | null;
  evidence: CompEvidence | null;
  underwriting: UnderwriteResult | null;
  risk: RiskReport | null;
  scores: StrategyScores | null;
};

const unitsRequired = (param: string): Refusal => ({ code: 'units_required', message: `units_required: the unit count (1-4) is unknown and no listing or parcel record supplies it; pass ${param}` });
const PRICE_REQUIRED: Refusal = { code: 'price_required', message: 'price_required: a positive price is needed and no matching listing supplies it; pass price' };

const refused = (refusal: Refusal, subject: Subject | null): Appraisal => ({ refusal, subject, valuation: null, evidence: null, underwriting: null, risk: null, scores: null });

type Population = Record<Strategy, Float64Array>;
const populations = new WeakMap<readonly ListingRecord[], Map<string, Population>>();

type InventoryRow = ListingRecord & { status?: string; model_version?: string | null; raw_scores?: Partial<Record<Strategy, number | null>> };

/** Raw scores of the current-model scored inventory per strategy, without `exceptListing` (the subject's own row). */
function inventoryPopulation(listings: readonly ListingRecord[], exceptListing: string | null): Population {
  let byExcept = populations.get(listings);
  if (!byExcept) populations.set(listings, (byExcept = new Map()));
  const key = exceptListing ?? '';
  let pop = byExcept.get(key);
  if (!pop) {
    const rows = (listings as readonly InventoryRow[]).filter((r) => r.status === 'active' && r.model_version === MODEL_VERSION && r.raw_scores && r.listing_id !== exceptListing);
    pop = Object.fromEntries(STRATEGIES.map((s) => [s, sortedPopulation(rows.map((r) => r.raw_scores?.[s]))])) as Population;
    byExcept.set(key, pop);
  }
  return pop;
}

function scoresOf(uw: UnderwriteResult, subject: Subject, ctx: ValuationContext, weightsRaw: unknown, listingsRun: string | null): StrategyScores {
  const weights = resolveWeights(weightsRaw);
  const pop = inventoryPopulation(ctx.subjects.listings, subject.listing_id ?? null);
  const per = <T>(f: (s: Strategy) => T): Record<Strategy, T> => Object.fromEntries(STRATEGIES.map((s) => [s, f(s)])) as Record<Strategy, T>;
  const raws = per((s) => rawStrategyScore(s, uw.strategies[s].economics, uw.strategies[s].unscored_reason, weights));
  return {
    raw: per((s) => raws[s].raw),
    percentiles: per((s) => placeInPopulation(raws[s].raw, pop[s])),
    null_reasons: per((s) => raws[s].null_reason ?? (pop[s].length === 0 ? 'no_scored_inventory' : null)),
    population: per((s) => pop[s].length),
    listings_run: listingsRun,
  };
}

/**
 * Values (and, as asked, underwrites, reports risk and scores) one subject. `chain`: the comp-source chain of a served
 * request. Throws property_not_found / validation_failed for a subject that cannot be located at all.
 */
export async function appraise(req: AppraiseRequest, ctx: ValuationContext, chain: ServeFallbackConfig, listingsRun: string | null = null): Promise<Appraisal> {
  const r = resolveSubject(req.subject, ctx.subjects);
  if (r.ptypeCode === null) {
    // Risk still reads what it can without a unit count; the flags that need a valuation say there is no evidence.
    const tax = req.risk ? taxOfUnvalued(r, req.subject, ctx) : null;
    const risk = req.risk ? riskReport(riskInputsOf({ subject: r.subject, asOf: asOfOf(req.subject, ctx).asOfIso, tax, appraisalCeiling: null, rentConfidence: null }, ctx, req.risk)) : null;
    return { ...refused(unitsRequired(req.unitsParam ?? 'units'), r.subject), risk };
  }
  if (req.requirePrice && !(r.subject.price !== null && r.subject.price > 0)) return refused(PRICE_REQUIRED, r.subject);
  const { valuation, evidence } = await serveValuation(req.subject, ctx, chain);
  const u = req.underwriting ?? null;
  let underwriting: UnderwriteResult | null = null;
  if (u) {
    const base = underwriteInputOf(valuation, isChicagoTract(ctx, valuation.subject.tract_geoid), valuation.subject.price);
    underwriting = underwrite({
      ...base, strategy: u.strategy, financing: u.financing ?? null, assumptions: u.assumptions, horizonYears: u.horizonYears,
      hoa: u.hoa ?? null, mgmtSelf: u.mgmtSelf, ownerOccupied: req.subject.ownerOccupied ?? undefined,
    });
  }
  const point = pointArvUsd(valuation) !== null;
  return {
    refusal: null,
    subject: valuation.subject,
    valuation,
    evidence,
    underwriting,
    risk: req.risk ? riskOfValuation(valuation, ctx, req.risk) : null,
    scores: underwriting && point ? scoresOf(underwriting, valuation.subject, ctx, u?.weights, listingsRun) : null,
  };
}
