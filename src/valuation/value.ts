// valueProperty: one full valuation — subject, Tier-1 comps, as-is, the ladder's decision, rehab, tax, rent, the
// artifact and the displayed valuation derived from it; valueWithEvidence adds the comp evidence it was decided on.
import type { FallbackAttempt } from '../contracts/artifact.js';
import type { Rent } from '../contracts/rent.js';
import type { Tax } from '../contracts/tax.js';
import type { Valuation } from '../contracts/valuation.js';
import { AppError } from '../errors/app-error.js';
import { VALUATION_REGISTRY_VERSION } from '../registry/constants.js';
import { MODEL_VERSION } from '../registry/versions.js';
import { COUNTY_CODE } from '../store/columns.js';
import { buildArtifact, deriveDisplayedValuation, type ArvEvidence, type BuildArtifactInput, type DisplayedValuationParts } from './artifact.js';
import { conditionCodeOf, valueAsIs, type AsIsResult } from './comps/as-is.js';
import { asIsVsArvWarnings } from './comps/as-is-check.js';
import { dayOfIso, isoOfDay, utcDay } from '../store/days.js';
import { decideValuationDisplay, pointUsdOf, type LadderDecision } from './decide/ladder.js';
import { valuationIncome } from './economics/income-hook.js';
import type { LadderEvidence, Tier1Evidence } from './decide/ladder-evidence.js';
import { estimateRehab, type Condition, type RehabScope } from './economics/rehab.js';
import { calibrationFor } from './decide/segment.js';
import { rejectedByReason } from './inputs-hash.js';
import { resolveSubject, statedCondition, type ResolvedSubject, type SubjectInput } from './subject/subject.js';
import { estimateTax, REFERENCE_TAX_SOURCE, type TaxReference } from './economics/tax.js';
import { ceilingFor, computeTier1, kernelSubject, type Tier1Result, type Tier1Subject } from './comps/tier1.js';
import { asIsWithPriorSale, findPriorSale, priorSaleFactor, priorSaleView, type PriorSaleFit } from './comps/prior-sale.js';
import type { ValuationContext } from './value-context.js';
import { cookTriadAt } from './economics/triad.js';

export type ValueInput = SubjectInput & { asOf?: string | null; scope?: RehabScope | null; ownerOccupied?: boolean | null };

/** Rent when the rent module is not wired: every number null, method says so (never a fabricated rent). */
export const RENT_NOT_ESTIMATED: Rent = { market: null, reno: null, s8: null, method: 'not_estimated', confidence: null, warnings: ['rent_model_not_wired'] };

/** Subject → evidence → the ladder's decision, without the comp lists (what scoring reads). */
export type Decided = { r: ResolvedSubject; ownerOccupied: boolean; asOfIso: string; asOfDay: number; asIs: AsIsResult; evidence: LadderEvidence; decision: LadderDecision };
type Pieces = Decided & { t1: Tier1Result | null };

/**
 * Area context: `eager` (served valuations: always, as context beside Tier 1/2 too) or `when_needed` (bulk scoring:
 * only when the ladder has no Tier-1/Tier-2 answer, i.e. when it can change the outcome; beside a Tier-1 value it is
 * optional context the scores never read).
 */
export type AreaMode = 'eager' | 'when_needed';

export function gates(r: ResolvedSubject, ctx: ValuationContext): LadderEvidence['subject'] {
  return {
    county: r.subject.county,
    outsideMappedTracts: r.tract === null,
    tractNotIngested: r.tract !== null && !ctx.ingestedTracts.has(r.tract.geoid),
    condoModelUnavailable: r.subject.property_type === 'condo',
  };
}

export function tier1SubjectOf(r: ResolvedSubject, ctx: ValuationContext, asOfDay: number): Tier1Subject {
  if (r.ptypeCode === null) throw new AppError('units_required', 'property type and unit count are unknown: pass units (1-4) or prop_type');
  const s = r.subject;
  return {
    lat: s.lat, lon: s.lon, sqft: s.sqft ?? null, beds: s.beds ?? null, ptype: r.ptypeCode, county: COUNTY_CODE[s.county], asOfDay,
    excludeParcelIdx: r.parcelRow, units: s.units ?? null,
  };
}

/**
 * The input's as-of date, else the UTC date of the context's clock now (utcDay). A job valuing many subjects (score-all,
 * a listings run, a distributed run) decides its date once when it starts and names it in every input, so that all
 * its rows are valued as of one date even when the job runs past a UTC midnight.
 */
export function asOfOf(input: ValueInput, ctx: ValuationContext): { asOfIso: string; asOfDay: number } {
  const iso = input.asOf ?? utcDay(ctx.now());
  const day = dayOfIso(iso);
  return { asOfIso: isoOfDay(day), asOfDay: day };
}

export const isBlocked = (g: LadderEvidence['subject']): boolean => g.outsideMappedTracts || g.tractNotIngested || g.condoModelUnavailable;

/**
 * The comps value moved by the champion's weight of the subject's own earlier sale (comps/prior-sale.ts); the comp
 * range widened to hold it, as evidenceOf widens it for the weighted median. Unchanged without a weight.
 */
export function withPriorSale(t1: Tier1Result['evidence'], fit: PriorSaleFit | null | undefined): Tier1Result['evidence'] {
  const factor = priorSaleFactor(t1.priorSale, fit);
  if (factor === 1 || t1.valueUsd === null || t1.compRangeUsd === null) return t1;
  const valueUsd = t1.valueUsd * factor;
  return { ...t1, valueUsd, compsValueUsd: t1.valueUsd, compRangeUsd: { low: Math.min(t1.compRangeUsd.low, valueUsd), high: Math.max(t1.compRangeUsd.high, valueUsd) } };
}

/**
 * The as-is result moved by the champion's as-is weight of the subject's own earlier sale (comps/prior-sale.ts). Only
 * a value of the whole market around the subject (`all_conditions`: nobody stated its condition) moves: the weights
 * were fitted on such values. A stated condition already says what the earlier sale would, and more: a house now
 * stated distressed whose earlier sale was renovated must not be carried back up to that sale.
 */
function asIsMoved(r: ResolvedSubject, ctx: ValuationContext, asOfDay: number, asIs: AsIsResult): AsIsResult {
  if (!asIs.asIs || asIs.asIs.value === null || asIs.asIs.as_is_stratum !== 'all_conditions') return asIs;
  const ev = findPriorSale(ctx, { excludeParcelIdx: r.parcelRow, county: COUNTY_CODE[r.subject.county], asOfDay }, asIs.asIs.value);
  return asIsWithPriorSale(asIs, ev, ctx.calibration?.priorSaleAsIs);
}

/**
 * Evidence around the Tier-1 and as-is results (each moved by the subject's earlier sale), then the ladder's
 * decision (shared by decide and the bulk path).
 */
export function decideFrom(
  r: ResolvedSubject, ctx: ValuationContext, at: { asOfIso: string; asOfDay: number }, t1: Tier1Result['evidence'] | null, asIs: AsIsResult,
  o: { ownerOccupied: boolean; area: AreaMode },
): Decided {
  const g = gates(r, ctx);
  const { asOfDay } = at;
  const moved = t1 ? withPriorSale(t1, ctx.calibration?.priorSale) : null;
  const tier1: Tier1Evidence | null = moved
    ? { ...moved, calibration: r.segment ? calibrationFor(ctx.calibration, r.segment, moved) : null, modelValueUsd: ctx.hooks.modelValue?.(r, asOfDay) ?? null }
    : null;
  const areaOf = () => (g.outsideMappedTracts ? null : (ctx.hooks.areaContext?.(r, asOfDay) ?? null));
  let evidence: LadderEvidence = { subject: g, tier1, tier2: isBlocked(g) ? null : (ctx.hooks.tier2?.(r, asOfDay) ?? null), areaContext: o.area === 'eager' ? areaOf() : null };
  let decision = decideValuationDisplay(evidence);
  // Under a hard suppression (isBlocked) the ladder suppresses whatever the area says: no area context to compute.
  if (o.area === 'when_needed' && decision.outcome === 'suppressed' && !isBlocked(g)) {
    const areaContext = areaOf();
    if (areaContext) decision = decideValuationDisplay((evidence = { ...evidence, areaContext }));
  }
  return { r, ownerOccupied: o.ownerOccupied, ...at, asIs: asIsMoved(r, ctx, asOfDay, asIs), evidence, decision };
}

/** Subject → evidence → the ladder's decision (no assembly). Exposed for the backtest and tests. */
export function decide(input: ValueInput, ctx: ValuationContext): Pieces {
  const r = resolveSubject(input, ctx.subjects);
  const at = asOfOf(input, ctx);
  const ts = isBlocked(gates(r, ctx)) ? null : tier1SubjectOf(r, ctx, at.asOfDay);
  const t1 = ts ? computeTier1(ctx, ts) : null;
  const asIs = ts ? valueAsIs(ctx.kernel, kernelSubject(ts), conditionCodeOf(statedCondition(r.subject))) : { asIs: null, warnings: ['as_is_thin_evidence'], rows: [] };
  return { ...decideFrom(r, ctx, at, t1?.evidence ?? null, asIs, { ownerOccupied: input.ownerOccupied ?? false, area: 'eager' }), t1 };
}

/** The reference tax lookups: the reader (reference/load.ts) indexes each file once, so no per-valuation cache. */
const TAX_REFERENCE: TaxReference = REFERENCE_TAX_SOURCE;

function taxOf(p: Decided, v: { pointUsd: number | null; areaUsd: number | null }): Tax {
  return taxAt(p.r, { asOfIso: p.asOfIso, ownerOccupied: p.ownerOccupied, asIsUsd: p.asIs.asIs?.value ?? null, ...v });
}

function taxAt(r: ResolvedSubject, a: { asOfIso: string; ownerOccupied: boolean; asIsUsd: number | null; pointUsd: number | null; areaUsd: number | null }): Tax {
  const s = r.subject;
  const { tax } = estimateTax({
    county: s.county, municipality: r.tract?.muni ?? null, triad: s.county === 'cook' ? cookTriadAt(s.lat, s.lon) : null, classCode: null,
    priceUsd: s.price, asIsValueUsd: a.asIsUsd, arvUsd: a.pointUsd, arvPointActionable: a.pointUsd !== null,
    areaEstimateUsd: a.areaUsd, ownerOccupied: a.ownerOccupied, asOf: a.asOfIso,
  }, TAX_REFERENCE);
  return tax;
}

/** The tax of a located subject that cannot be valued (its unit count unknown): on the caller's price alone. */
export function taxOfUnvalued(r: ResolvedSubject, input: ValueInput, ctx: ValuationContext): Tax {
  return taxAt(r, { asOfIso: asOfOf(input, ctx).asOfIso, ownerOccupied: input.ownerOccupied ?? false, asIsUsd: null, pointUsd: null, areaUsd: null });
}

function fallbackChain(p: Pieces): FallbackAttempt[] {
  const served = p.decision.artifactArv !== null;
  const n = p.t1?.comps.length ?? 0;
  const corpus: FallbackAttempt = { source: 'corpus', served, note: p.t1 ? `${n} renovated/new comps from snapshot corpus` : `not searched: ${p.decision.arvNullReason}` };
  return served ? [corpus] : [corpus, { source: 'none', served: false, note: `no comp source served a Tier-1 value (${p.decision.arvNullReason})` }];
}

const REHAB_CONDITIONS = new Set(['distressed', 'dated', 'renovated', 'new']);

/** The spec's inputs-hash members for this valuation (everything it read except the subject and the clock). */
function hashPartsOf(p: Pieces, input: ValueInput, ctx: ValuationContext, comps: readonly unknown[], chain: readonly FallbackAttempt[], priorSale: PriorSaleView): BuildArtifactInput['hashParts'] {
  const { r, t1, evidence } = p;
  const calRow = r.segment ? calibrationFor(ctx.calibration, r.segment, evidence.tier1) : null;
  return {
    tract: r.tract ? { geoid: r.tract.geoid, muni: r.tract.muni, segment: r.segment } : null,
    assumptions: { prop_type: r.subject.property_type, scope: input.scope ?? null, owner_occupied: input.ownerOccupied ?? null, as_of_day: p.asOfDay },
    evidence: { comps: comps as never[], rejected: rejectedByReason(t1?.rejectedRows ?? []), timeIndex: { digest: ctx.timeIndexDigest, cutoff_day: ctx.timeIndex.cutoffDay }, flipPairs: (t1?.flipPairs ?? []) as never[], ...(priorSale ? { priorSale } : {}), ...(p.asIs.asIs?.prior_sale ? { asIsPriorSale: p.asIs.asIs.prior_sale } : {}) },
    provenance: { snapshot_id: ctx.snapshotId, comp_sales_digest: ctx.compSalesDigest, fallback: chain.map((f) => f.source), vintages: ctx.vintages as never },
    assetSlices: { calibration: calRow as never, hedonic: evidence.tier2 as never, area: evidence.areaContext as never, model_value: evidence.tier1?.modelValueUsd ?? null },
    versions: { model: MODEL_VERSION, registry: VALUATION_REGISTRY_VERSION, calibration: ctx.calibration?.version ?? null },
  };
}

/** The subject's earlier sale as the artifact shows it (with the weight that moved the value), when Tier 1 valued it. */
type PriorSaleView = ArvEvidence['prior_sale'];

/** Computed once per valuation: the inputs hash takes it whole (no hash member without one), the displayed arv masked. */
function priorSaleOf(p: Pieces, ctx: ValuationContext): PriorSaleView {
  const t = p.evidence.tier1;
  const compsValue = t?.compsValueUsd ?? t?.valueUsd ?? null;
  return t?.priorSale && compsValue !== null && p.decision.artifactArv ? priorSaleView(t.priorSale, ctx.calibration?.priorSale, compsValue) : null;
}

/** The earlier sale as a displayed arv shows it: beside anything but a point, without the values of the property it implies. */
function displayedPriorSale(ps: PriorSaleView, point: boolean): PriorSaleView {
  return ps && !point ? { ...ps, carried_value: null, comps_value: null } : ps;
}

/** Arv evidence beside the ladder's fields; the ceiling flag reads only what is served (the point, or the range low). */
function arvEvidenceOf(p: Pieces, ctx: ValuationContext, priorSale: PriorSaleView): ArvEvidence {
  const { t1, decision } = p;
  if (!t1) return { time_index_note: null };
  const served = pointUsdOf(decision) ?? (decision.outcome === 'range' ? decision.arv.low : null);
  return {
    flip_pairs: t1.flipPairs.map((f) => ({ ...f })),
    flip_pairs_summary: t1.flipSummary,
    appraisal_ceiling: decision.artifactArv ? ceilingFor(t1.appraisalCeiling, served) : null,
    prior_sale: displayedPriorSale(priorSale, pointUsdOf(decision) !== null),
    time_index_note: ctx.timeIndex.note,
  };
}

/** The rehab estimate of a decided valuation's subject (the caller's scope override, else from its condition). */
export function rehabOf(p: Decided, input: ValueInput): ReturnType<typeof estimateRehab> {
  const s = p.r.subject;
  const stated = statedCondition(s);
  const condition = stated && REHAB_CONDITIONS.has(stated) ? (stated as Condition) : null;
  return estimateRehab({ condition, sqft: s.sqft ?? null, yearBuilt: s.year_built ?? null, openViolations: null, mechanicalsNeedReplacement: null, scopeOverride: input.scope ?? null });
}

/** Rehab, tax and rent of a decided valuation: the one computation behind valueProperty and bulk scoring. */
export function economicsPartsOf(p: Decided, input: ValueInput, ctx: ValuationContext): Pick<DisplayedValuationParts, 'rent' | 'rehab' | 'tax'> {
  const { r, decision } = p;
  const rehab = rehabOf(p, input);
  const pointUsd = pointUsdOf(decision);
  const areaUsd = decision.outcome === 'area_context' ? (decision.areaContext?.value ?? null) : null;
  return { rent: ctx.hooks.rent?.(r, p.asOfIso) ?? RENT_NOT_ESTIMATED, rehab, tax: taxOf(p, { pointUsd, areaUsd }) };
}

/** `fallbackChain`: the comp-source attempts of a served request (fallback/serve.ts); default: corpus only. */
export type ValueOptions = { fallbackChain?: FallbackAttempt[] };

/**
 * The comp evidence behind a valuation, beside it: every candidate the Tier-1 search accepted and rejected (also when
 * the ladder did not serve a Tier-1 value, so get_comps can show why), its dispersion, step and flip pairs.
 */
export type CompEvidence = {
  segment: string | null;
  outcome: LadderDecision['outcome'];
  accepted: Tier1Result['comps'];
  rejected: Tier1Result['rejected'];
  fsdPct: number | null;
  ladderStep: 1 | 2 | 3 | null;
  flipSummary: Tier1Result['flipSummary'] | null;
  timeIndexNote: string | null;
};

export type Valued = { valuation: Valuation; evidence: CompEvidence };

/** The spec's Valuation object for one subject, with the comp evidence it was decided on. */
export function valueWithEvidence(input: ValueInput, ctx: ValuationContext, opts: ValueOptions = {}): Valued {
  const p = decide(input, ctx);
  const { r, decision, t1 } = p;
  const s = r.subject;
  const comps = decision.artifactArv ? (t1?.comps ?? []) : [];
  const chain = opts.fallbackChain ?? fallbackChain(p);
  const economics = economicsPartsOf(p, input, ctx);
  const income = valuationIncome(r, decision, economics.rent, economics.tax);
  const priorSale = priorSaleOf(p, ctx);
  const artifact = buildArtifact({
    modelVersion: MODEL_VERSION,
    asOf: p.asOfIso,
    subject: s,
    compsUsed: comps,
    compsRejected: t1?.rejected ?? [],
    fallbackChain: chain,
    warnings: [...p.asIs.warnings, ...asIsVsArvWarnings(p.asIs.asIs, decision.arv), ...income.warnings],
    vintages: ctx.vintages,
    asIs: p.asIs.asIs,
    decision,
    hashParts: hashPartsOf(p, input, ctx, comps, chain, priorSale),
  });
  const valuation = deriveDisplayedValuation(artifact, decision, { ...economics, noiImpliedValue: income.noiImpliedValue, noiImpliedValueNullReason: income.nullReason, arvEvidence: arvEvidenceOf(p, ctx, priorSale) });
  const evidence: CompEvidence = {
    segment: r.segment,
    outcome: decision.outcome,
    accepted: t1?.comps ?? [],
    rejected: t1?.rejected ?? [],
    fsdPct: t1?.evidence.fsdPct ?? null,
    ladderStep: t1?.evidence.ladderStep ?? null,
    flipSummary: t1?.flipSummary ?? null,
    timeIndexNote: t1 ? ctx.timeIndex.note : null,
  };
  return { valuation, evidence };
}

/** The spec's Valuation object for one subject. */
export function valueProperty(input: ValueInput, ctx: ValuationContext, opts: ValueOptions = {}): Valuation {
  return valueWithEvidence(input, ctx, opts).valuation;
}
