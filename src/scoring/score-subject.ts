// Values and underwrites one subject and reduces it to a compact scored record (raw strategy scores, no percentiles):
// the unit of work of the listings run and bulk scoring, run inside a worker. Economics only when the ladder says point.
import { AppError } from '../errors/app-error.js';
import type { GateCheck } from './gates.js';
import { rawStrategyScore, type RawScore } from './raw-score.js';
import { resolveWeights } from './weights.js';
import { underwrite, type UnderwriteInput, type UnderwriteResult } from '../underwriting/underwrite.js';
import { STRATEGIES, type Economics, type Strategy } from '../underwriting/types.js';
import { pointArvUsd, type ScorableValuation } from '../valuation/artifact.js';
import { serveValuation, type ServeFallbackConfig } from '../valuation/fallback/serve.js';
import { valueProperty, type ValueInput } from '../valuation/value.js';
import type { ValuationContext } from '../valuation/value-context.js';

/**
 * `priceBasis` `as_is` (bulk scoring of parcels that are not for sale): underwrite at the labeled as-is value, so a
 * parcel without an as-is value stays unscored (price_required); never at a range midpoint or the ARV.
 */
export type ScoreSubject = { id: string; input: ValueInput; priceBasis?: 'input' | 'as_is' };

/** One failed gate check of a strategy (scoring/gates.ts GateCheck without its clearance); value null = not evaluable. */
export type GateFailure = Pick<GateCheck, 'metric' | 'value' | 'threshold' | 'direction'>;

/** Point economics the listing record shows (investor-target fields); all null unless the valuation is a point. */
export type EconomicsSummary = Pick<Economics, 'max_offer' | 'brrrr_offer' | 'noi' | 'dscr' | 'cash_on_cash' | 'profit' | 'economics_factor'>;

export type SubjectScore = {
  id: string;
  /** Set when valuing failed for this subject (e.g. units_required); every number is then null. */
  error: { code: string; message: string } | null;
  model_version: string | null;
  as_of: string | null;
  inputs_hash: string | null;
  tract_geoid: string | null;
  county: string | null;
  outcome: string | null;
  point_actionable: boolean;
  unscored_reason: string | null;
  score_basis: 'arv' | 'area_estimate' | null;
  arv_value: number | null;
  arv_low: number | null;
  arv_high: number | null;
  arv_method: string | null;
  method_tier: number | null;
  /** confidence_p10 when calibrated, else the legacy confidence. */
  arv_confidence: number | null;
  range_reason: string | null;
  suppression_reason: string | null;
  value_as_is: number | null;
  rent_monthly: number | null;
  rent_s8: number | null;
  rehab_usd: number | null;
  tax_annual: number | null;
  /** Valuation warnings (valuation.warnings), e.g. as_is_exceeds_arv. */
  warnings: string[];
  raw: Record<Strategy, number | null>;
  null_reasons: Record<Strategy, string | null>;
  /** Gate checks each strategy failed: [] when its gates passed, null when no gate ran (unscored, no point). */
  gate_failures: Record<Strategy, GateFailure[] | null>;
  economics: Record<Strategy, EconomicsSummary | null>;
};

/** Default strategy weights of the raw scores (no caller weights in listing and bulk scoring). */
export const WEIGHTS = resolveWeights(undefined);
const muniCache = new WeakMap<ValuationContext, Map<string, string | null>>();

/** Whether the tract lies in the City of Chicago (compliance costs in underwriting). */
export const isChicagoTract = (ctx: ValuationContext, geoid: string | null): boolean => (muniOf(ctx, geoid) ?? '').toLowerCase() === 'chicago';

function muniOf(ctx: ValuationContext, geoid: string | null): string | null {
  if (geoid === null) return null;
  let m = muniCache.get(ctx);
  if (!m) {
    m = new Map(ctx.subjects.tracts.map((t) => [t.geoid, t.muni]));
    muniCache.set(ctx, m);
  }
  return m.get(geoid) ?? null;
}

/** One value per strategy, in STRATEGIES order (a plain loop: this runs several times per scored parcel). */
function perStrategy<T>(f: (s: Strategy) => T): Record<Strategy, T> {
  const out = {} as Record<Strategy, T>;
  for (const s of STRATEGIES) out[s] = f(s);
  return out;
}

/** What underwriting reads of a valuation (full, or bulk: valuation/bulk-economics.ts), as plain figures. */
export type UnderwriteFigures = {
  /** pointArvUsd of the valuation: null unless the ladder said point. */
  arvUsd: number | null;
  unscoredReason: string | null;
  asIsUsd: number | null;
  subject: Pick<ScorableValuation['subject'], 'units' | 'property_type' | 'price' | 'county'>;
  rentMonthly: number | null;
  rentStabilizedMonthly: number | null;
  rentS8: number | null;
  taxAnnual: number | null;
  rehab: number | null;
};

/** The underwriting input of those figures at `priceUsd` (else the subject's price). */
export function underwriteInputFrom(f: UnderwriteFigures, isChicago: boolean, priceUsd: number | null): UnderwriteInput {
  const units = f.subject.units ?? (f.subject.property_type === 'sfh' ? 1 : null);
  return {
    pointActionable: f.arvUsd !== null,
    unscoredReason: f.unscoredReason ?? (f.arvUsd === null ? 'valuation_not_point' : null),
    arv: f.arvUsd,
    asIsValue: f.asIsUsd,
    price: priceUsd ?? f.subject.price,
    units: units !== null && units >= 1 && units <= 4 ? units : 1,
    rentMonthly: f.rentMonthly,
    rentStabilizedMonthly: f.rentStabilizedMonthly,
    rentS8: f.rentS8,
    taxAnnual: f.taxAnnual,
    rehab: f.rehab,
    strategy: 'brrrr',
    county: f.subject.county,
    isChicago,
  };
}

/** The underwriting input a valuation supports: the only ARV used is pointArvUsd (null unless the ladder said point). */
export function underwriteInputOf(v: ScorableValuation, isChicago: boolean, priceUsd: number | null): UnderwriteInput {
  return underwriteInputFrom({
    arvUsd: pointArvUsd(v), unscoredReason: v.display?.unscored_reason ?? null, asIsUsd: v.value_as_is?.value ?? null, subject: v.subject,
    rentMonthly: v.rent.as_is_contract?.value ?? v.rent.market, rentStabilizedMonthly: v.rent.stabilized_post_reno?.value ?? v.rent.reno,
    rentS8: v.rent.s8, taxAnnual: v.tax.predictive_annual, rehab: v.rehab.estimate,
  }, isChicago, priceUsd);
}

function gateFailuresOf(r: RawScore): GateFailure[] | null {
  if (!r.gates) return null;
  return r.gates.checks.filter((c) => !c.pass).map((c) => ({ metric: c.metric, value: c.value, threshold: c.threshold, direction: c.direction }));
}

function summarize(e: Economics): EconomicsSummary {
  return { max_offer: e.max_offer, brrrr_offer: e.brrrr_offer, noi: e.noi, dscr: e.dscr, cash_on_cash: e.cash_on_cash, profit: e.profit, economics_factor: e.economics_factor };
}

export function emptyScore(id: string, error: { code: string; message: string } | null): SubjectScore {
  return {
    id, error, model_version: null, as_of: null, inputs_hash: null, tract_geoid: null, county: null, outcome: null, point_actionable: false, unscored_reason: error ? 'valuation_failed' : null,
    score_basis: null, arv_value: null, arv_low: null, arv_high: null, arv_method: null, method_tier: null, arv_confidence: null, range_reason: null,
    suppression_reason: null, value_as_is: null, rent_monthly: null, rent_s8: null, rehab_usd: null, tax_annual: null, warnings: [],
    raw: perStrategy(() => null), null_reasons: perStrategy(() => (error ? 'valuation_failed' : null)), gate_failures: perStrategy(() => null),
    economics: perStrategy(() => null),
  };
}

/** Compact record of a valuation plus its underwriting; raw scores only for strategies whose gates pass. */
export function scoreValuation(id: string, v: ScorableValuation, uw: UnderwriteResult | null): SubjectScore {
  const point = pointArvUsd(v) !== null;
  if (point && !uw) throw new AppError('internal_error', `point valuation ${id} scored without its underwriting`);
  // Without a point every score, reason and economics field below comes from the ladder, never from uw.
  const raws = point && uw ? perStrategy((s) => rawStrategyScore(s, uw.strategies[s].economics, uw.strategies[s].unscored_reason, WEIGHTS)) : null;
  return {
    ...emptyScore(id, null),
    model_version: v.model_version,
    as_of: v.as_of,
    inputs_hash: v.inputs_hash,
    tract_geoid: v.subject.tract_geoid,
    county: v.subject.county,
    outcome: v.display?.outcome ?? null,
    point_actionable: point,
    unscored_reason: point ? null : (v.display?.unscored_reason ?? 'valuation_not_point'),
    score_basis: v.display?.score_basis ?? null,
    // Range-only rows keep their range but never a point value (ladder: consumers render no midpoint).
    arv_value: point ? v.arv.value : null,
    arv_low: v.arv.low,
    arv_high: v.arv.high,
    arv_method: v.arv.method,
    method_tier: v.arv.method_tier,
    arv_confidence: v.arv.confidence_p10 ?? v.arv.confidence,
    range_reason: v.arv.range_reason ?? null,
    suppression_reason: v.arv.suppression_reason ?? null,
    value_as_is: v.value_as_is?.value ?? null,
    rent_monthly: v.rent.as_is_contract?.value ?? v.rent.market,
    rent_s8: v.rent.s8,
    rehab_usd: v.rehab.estimate,
    tax_annual: v.tax.predictive_annual,
    warnings: [...(v.warnings ?? [])],
    raw: perStrategy((s) => (raws ? raws[s].raw : null)),
    null_reasons: perStrategy((s) => (raws ? raws[s].null_reason : (v.display?.unscored_reason ?? 'valuation_not_point'))),
    gate_failures: perStrategy((s) => (raws ? gateFailuresOf(raws[s]) : null)),
    economics: perStrategy((s) => (point && uw && uw.strategies[s].unscored_reason === null ? summarize(uw.strategies[s].economics) : null)),
  };
}

const errorScore = (id: string, e: unknown): SubjectScore => {
  const err = e instanceof AppError ? e : new AppError('internal_error', (e as Error)?.message ?? String(e));
  return emptyScore(id, { code: err.code, message: err.message });
};

/** Underwrites and scores one valuation (full or bulk view): the one scoring step of every path. */
function scoreView(s: ScoreSubject, v: ScorableValuation, ctx: ValuationContext): SubjectScore {
  const isChicago = isChicagoTract(ctx, v.subject.tract_geoid);
  const price = s.priceBasis === 'as_is' ? (v.value_as_is?.value ?? null) : (s.input.price ?? null);
  // Underwriting runs only for a point: without one scoreValuation reads nothing from it (INV: no point, no economics).
  return scoreValuation(s.id, v, pointArvUsd(v) !== null ? underwrite(underwriteInputOf(v, isChicago, price)) : null);
}

/** scoreSubject through the served path (comp-source chain): what the listings run scores, as every door values. */
export async function scoreServedSubject(s: ScoreSubject, ctx: ValuationContext, chain: ServeFallbackConfig): Promise<SubjectScore> {
  try {
    return scoreView(s, (await serveValuation(s.input, ctx, chain)).valuation, ctx);
  } catch (e) {
    return errorScore(s.id, e);
  }
}

/** Values, underwrites and scores one subject. Expected refusals are values; input errors become `error` on the row. */
export function scoreSubject(s: ScoreSubject, ctx: ValuationContext): SubjectScore {
  try {
    return scoreView(s, valueProperty(s.input, ctx), ctx);
  } catch (e) {
    return errorScore(s.id, e);
  }
}
