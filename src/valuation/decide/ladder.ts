// The display ladder (spec States and transitions, Valuation outcome): the ONLY place that decides point / range /
// Tier-2 range / area context / suppression, and the ONLY place that rounds displayed money (the rule itself: display-money.ts). Never reads as-is (INV-8).
import type { AreaContext } from '../../contracts/area-context.js';
import { AREA_CONTEXT_LABEL, AREA_CONTEXT_METHOD } from '../../contracts/area-context.js';
import type { ArtifactArv } from '../../contracts/artifact.js';
import type { Arv, Interval, RangeReason, SuppressionReason } from '../../contracts/arv.js';
import type { AsIs } from '../../contracts/as-is.js';
import type { UnscoredReason, VALUATION_WARNINGS, ValuationDisplay, ValuationOutcome } from '../../contracts/valuation.js';
import { AppError } from '../../errors/app-error.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';
import { roundDisplayedUsd, type RoundMode } from './display-money.js';
import { assessDisagreement } from './disagreement.js';
import { legacyConfidence } from './ladder-confidence.js';
import { evidenceLooksValid } from './ladder-evidence-check.js';
import { LadderEvidenceSchema, type AreaContextEvidence, type HedonicEvidence, type LadderEvidence, type SubjectGates, type Tier1Evidence } from './ladder-evidence.js';
import { hedonicSegmentCounty, segmentOfCalibrationKey } from './segment.js';

type ValuationWarning = (typeof VALUATION_WARNINGS)[number];

/** The arv fields the ladder decides; evidence arrays (comps, flip_pairs, …) are attached by the artifact module. */
export type ArvDisplay = Pick<
  Arv,
  'value' | 'low' | 'high' | 'confidence' | 'confidence_p10' | 'fsd' | 'method_tier' | 'method' | 'suppression_reason' | 'range_only' | 'n_comps' | 'ladder_step' | 'interval' | 'segment' | 'range_reason' | 'comp_range' | 'model'
>;

export type LadderDecision = {
  outcome: ValuationOutcome;
  /** The one flag downstream checks: point-derived numbers (offers, NOI, DSCR, CoC, cashflow, strategy scores) only when true. */
  pointActionable: boolean;
  unscoredReason: UnscoredReason | null;
  scoreBasis: 'arv' | 'area_estimate' | null;
  dealScoreCap: number | null;
  /** Displayed arv fields, money rounded. */
  arv: ArvDisplay;
  /** Unrounded Tier-1 record for artifact.arv; null when no comp-stratified ARV exists. */
  artifactArv: ArtifactArv | null;
  arvNullReason: SuppressionReason | null;
  /** Unrounded area context for artifact.area_context (also beside Tier 1 as context). */
  areaContext: AreaContext | null;
  warnings: string[];
};

// ---------- money rounding (the only rule: display-money.ts, shared with the browser's evidence panel) ----------

export { roundDisplayedUsd, type RoundMode } from './display-money.js';

const roundOrNull = (usd: number | null | undefined, mode: RoundMode): number | null => (usd == null ? null : roundDisplayedUsd(usd, mode));

function displayInterval(iv: Interval | null | undefined): Interval | null {
  if (!iv) return null;
  return { ...iv, low: roundDisplayedUsd(iv.low, 'down'), high: roundDisplayedUsd(iv.high, 'up') };
}

/** Displayed Tier-1 arv from the artifact's unrounded record: a point only when range_only is false. */
export function displayTier1Arv(a: ArtifactArv): ArvDisplay {
  return {
    value: a.range_only ? null : roundDisplayedUsd(a.value),
    low: roundOrNull(a.low, 'down'),
    high: roundOrNull(a.high, 'up'),
    confidence: a.confidence,
    confidence_p10: a.confidence_p10 ?? null,
    fsd: a.fsd ?? null,
    method_tier: 1,
    method: a.method,
    suppression_reason: null,
    range_only: a.range_only,
    n_comps: a.n_comps,
    ladder_step: a.ladder_step ?? null,
    interval: displayInterval(a.interval),
    segment: a.segment ?? null,
    range_reason: a.range_reason ?? null,
    comp_range: a.comp_range ? { low: roundDisplayedUsd(a.comp_range.low, 'down'), high: roundDisplayedUsd(a.comp_range.high, 'up') } : null,
    model: null,
  };
}

/** Displayed area context: money rounded, confidence capped at area_context_confidence_max. */
export function displayAreaContext(ac: AreaContext): AreaContext {
  const cap = VALUATION_DISPLAY.v.area_context_confidence_max;
  return {
    ...ac,
    value: roundDisplayedUsd(ac.value),
    low: roundOrNull(ac.low, 'down'),
    high: roundOrNull(ac.high, 'up'),
    confidence: ac.confidence == null ? null : Math.min(cap, ac.confidence),
  };
}

/** Displayed as-is value (a labeled, separate number; never an input to the ladder). */
export function displayAsIs(a: AsIs): AsIs {
  return { ...a, value: roundOrNull(a.value, 'nearest'), low: roundOrNull(a.low, 'down'), high: roundOrNull(a.high, 'up') };
}

/**
 * The ARV point a decision allows: the displayed value when the ladder said point, else null. Every economics path
 * (tax forward value, income, underwriting, bulk scoring) asks this; none re-derives it from outcome or range_only.
 */
export function pointUsdOf(d: Pick<LadderDecision, 'pointActionable' | 'arv'>): number | null {
  return d.pointActionable && d.arv.range_only === false ? d.arv.value : null;
}

/** The `display` block carried on the valuation object. */
export function toValuationDisplay(d: LadderDecision): ValuationDisplay {
  return { outcome: d.outcome, point_actionable: d.pointActionable, unscored_reason: d.unscoredReason, score_basis: d.scoreBasis, deal_score_cap: d.dealScoreCap };
}

// ---------- the decision ----------

/** Applies the spec's display-ladder table. Expected outcomes are values; malformed evidence throws internal_error. */
export function decideValuationDisplay(evidence: LadderEvidence): LadderDecision {
  const ev = checkedEvidence(evidence);
  const areaContext = ev.areaContext ? toAreaContext(ev.areaContext) : null;
  const hard = hardSuppression(ev.subject);
  if (hard) return suppressed(hard);
  const t1 = ev.tier1;
  const failure = tier1Failure(t1);
  if (t1 && failure === null) return tier1Decision(t1, ev.subject, areaContext);
  const reason = failure ?? 'insufficient_renovated_comps';
  if (ev.tier2 && isTier2Servable(ev.tier2, ev.subject)) return tier2Decision(ev.tier2, reason, areaContext);
  const why = [tier2Refusal(ev.tier2, ev.subject)];
  if (areaContext) return { ...areaContextDecision(reason, areaContext), warnings: why };
  return { ...suppressed(reason), warnings: why };
}

/** The evidence as the schema accepts it: the plain pre-check passes the common case, zod parses (or refuses) the rest. */
function checkedEvidence(evidence: LadderEvidence): LadderEvidence {
  if (evidenceLooksValid(evidence)) return evidence;
  const parsed = LadderEvidenceSchema.safeParse(evidence);
  if (!parsed.success) throw new AppError('internal_error', 'malformed ladder evidence', { details: parsed.error.issues });
  return parsed.data;
}

/** Subject gates that suppress outright, in precedence order. */
function hardSuppression(s: SubjectGates): SuppressionReason | null {
  if (s.outsideMappedTracts) return 'outside_mapped_tracts';
  if (s.tractNotIngested) return 'tract_not_ingested';
  if (s.condoModelUnavailable) return 'condo_model_unavailable';
  return null;
}

/** Why Tier 1 cannot serve, or null when it can. Fewer than 3 comps → no Tier 1 (luxury names the thin luxury case). */
function tier1Failure(t: Tier1Evidence | null): SuppressionReason | null {
  if (!t || t.valueUsd === null || t.nComps < COMP_POLICY.v.min_comps_value) {
    return t?.luxuryThinComps ? 'luxury_thin_comps' : 'insufficient_renovated_comps';
  }
  if (t.fsdPct !== null && t.fsdPct / 100 > COMP_POLICY.v.dispersion_gate) return 'dispersion_exceeds_threshold';
  if (t.luxuryThinComps) return 'luxury_thin_comps';
  return null;
}

/** A Tier-2 range needs a display-eligible (calibrated) segment fit on the subject's own county, location resolved. */
function isTier2Servable(h: HedonicEvidence, s: SubjectGates): boolean {
  return h.displayEligible && hedonicSegmentCounty(h.segment) === s.county && h.locationResolved;
}

/** Why Tier 2 did not serve a subject Tier 1 could not answer (a VALUATION_WARNINGS entry). */
function tier2Refusal(h: HedonicEvidence | null, s: SubjectGates): Extract<ValuationWarning, 'tier2_unavailable' | 'tier2_segment_not_calibrated'> {
  if (!h || !h.locationResolved || hedonicSegmentCounty(h.segment) !== s.county) return 'tier2_unavailable';
  return 'tier2_segment_not_calibrated';
}

function tier1RangeReason(thin: boolean, displayPoint: boolean): RangeReason | null {
  if (thin && !displayPoint) return 'thin_comps+calibration_display_gate';
  if (thin) return 'thin_comps';
  if (!displayPoint) return 'calibration_display_gate';
  return null;
}

function tier1Decision(t: Tier1Evidence, s: SubjectGates, areaContext: AreaContext | null): LadderDecision {
  if ((t.method === 'renovated_comps') !== (s.county === 'cook') || (t.method === 'lake_gis_comps') !== (s.county === 'lake')) {
    throw new AppError('internal_error', `tier-1 method ${t.method} does not serve county ${s.county}`);
  }
  const valueUsd = t.valueUsd as number;
  const cal = t.calibration;
  const thin = t.nComps < COMP_POLICY.v.min_comps_point;
  const displayPoint = cal?.display === 'point';
  const rangeReason = tier1RangeReason(thin, displayPoint);
  const band = tier1Band(t, valueUsd);
  const interval: Interval | null = cal
    ? {
        low: band.low, high: band.high, coverage: VALUATION_DISPLAY.v.interval_coverage, calibrated: true, segment: cal.segment, method: 'split_conformal',
        version: cal.version, widened_by_model_disagreement: band.widenedBy,
        calibration_fallback: cal.fallbackFor ? { for_segment: cal.fallbackFor, reason: `${cal.fallbackFor} has too few calibration sales for a row of its own; the declared fallback row ${cal.segment} serves it, as a range` } : null,
      }
    : null;
  const artifactArv: ArtifactArv = {
    value: valueUsd,
    low: band.low,
    high: band.high,
    confidence: legacyConfidence(t.fsdPct, t.nComps, t.ladderStep),
    n_comps: t.nComps,
    range_only: rangeReason !== null,
    method: t.method,
    tier: 1,
    range_reason: rangeReason,
    confidence_p10: cal?.confidenceP10 ?? null,
    fsd: t.fsdPct,
    ladder_step: t.ladderStep,
    segment: cal ? (cal.fallbackFor ?? segmentOfCalibrationKey(cal.segment)) : null,
    interval,
    comp_range: t.compRangeUsd,
  };
  const point = rangeReason === null;
  return {
    ...verdict(point ? 'point' : 'range'),
    arv: displayTier1Arv(artifactArv),
    artifactArv,
    arvNullReason: null,
    areaContext,
    warnings: band.widenedBy !== null ? ['approaches_disagree'] : [],
  };
}

/**
 * The Tier-1 band: the calibrated split-conformal interval [q80_lo × value, q80_hi × value] when the segment is
 * calibrated, else the comp IQR; widened to cover the model's band by the one disagreement rule (disagreement.ts)
 * when a positive model value is present (the evidence schema makes both values positive).
 */
function tier1Band(t: Tier1Evidence, valueUsd: number): { low: number; high: number; widenedBy: number | null } {
  const cal = t.calibration;
  const range = t.compRangeUsd as { low: number; high: number };
  const low = cal ? cal.q80Lo * valueUsd : range.low;
  const high = cal ? cal.q80Hi * valueUsd : range.high;
  const m = t.modelValueUsd ?? null;
  if (m === null) return { low, high, widenedBy: null };
  const d = assessDisagreement({ compValueUsd: valueUsd, modelValueUsd: m, lowUsd: low, highUsd: high, calibration: cal });
  return { low: d.low, high: d.high, widenedBy: d.widenedBy };
}

function tier2Decision(h: HedonicEvidence, tier1Reason: SuppressionReason, areaContext: AreaContext | null): LadderDecision {
  const interval: Interval = {
    low: roundDisplayedUsd(h.lowUsd, 'down'),
    high: roundDisplayedUsd(h.highUsd, 'up'),
    coverage: VALUATION_DISPLAY.v.interval_coverage,
    calibrated: true,
    segment: h.segment,
    method: 'hedonic_sigma_x_conformal',
    version: h.version,
    widened_by_model_disagreement: null,
  };
  const arv: ArvDisplay = {
    ...emptyArv('hedonic_v1', 2),
    low: interval.low,
    high: interval.high,
    confidence: legacyConfidence(h.sigmaPct, Number.POSITIVE_INFINITY, null),
    confidence_p10: h.confidenceP10,
    range_only: true,
    range_reason: 'hedonic_tier2_always_range',
    interval,
    segment: h.segment,
    model: { value: roundDisplayedUsd(h.valueUsd), location_basis: h.locationBasis, quarter_used: h.quarterUsed, segment: h.segment },
  };
  return { ...verdict('tier2_range'), arv, artifactArv: null, arvNullReason: tier1Reason, areaContext, warnings: [] };
}

function areaContextDecision(reason: SuppressionReason, areaContext: AreaContext): LadderDecision {
  return { ...verdict('area_context'), arv: suppressedArv(reason), artifactArv: null, arvNullReason: reason, areaContext, warnings: [] };
}

function suppressed(reason: SuppressionReason): LadderDecision {
  return { ...verdict('suppressed'), arv: suppressedArv(reason), artifactArv: null, arvNullReason: reason, areaContext: null, warnings: [] };
}

type Verdict = Pick<LadderDecision, 'outcome' | 'pointActionable' | 'unscoredReason' | 'scoreBasis' | 'dealScoreCap'>;

/** Outcome → what downstream may do. Range outcomes get no deal score at all (inventory search excludes them). */
function verdict(outcome: ValuationOutcome): Verdict {
  switch (outcome) {
    case 'point':
      return { outcome, pointActionable: true, unscoredReason: null, scoreBasis: 'arv', dealScoreCap: null };
    case 'range':
    case 'tier2_range':
      return { outcome, pointActionable: false, unscoredReason: 'valuation_range_only', scoreBasis: null, dealScoreCap: null };
    case 'area_context':
      return { outcome, pointActionable: false, unscoredReason: 'valuation_area_context', scoreBasis: 'area_estimate', dealScoreCap: VALUATION_DISPLAY.v.area_context_deal_score_cap };
    case 'suppressed':
      return { outcome, pointActionable: false, unscoredReason: 'valuation_suppressed', scoreBasis: null, dealScoreCap: null };
  }
}

function emptyArv(method: ArvDisplay['method'], tier: 2 | 3): ArvDisplay {
  return {
    value: null, low: null, high: null, confidence: null, confidence_p10: null, fsd: null, method_tier: tier, method,
    suppression_reason: null, range_only: null, n_comps: null, ladder_step: null, interval: null, segment: null,
    range_reason: null, comp_range: null, model: null,
  };
}

/** INV-5: Tier 3 suppresses — method `suppressed`, no value, no range, a named reason. */
function suppressedArv(reason: SuppressionReason): ArvDisplay {
  return { ...emptyArv('suppressed', 3), suppression_reason: reason };
}

function toAreaContext(e: AreaContextEvidence): AreaContext {
  return {
    value: e.valueUsd,
    label: AREA_CONTEXT_LABEL,
    low: e.lowUsd,
    high: e.highUsd,
    confidence: e.confidence == null ? null : Math.min(VALUATION_DISPLAY.v.area_context_confidence_max, e.confidence),
    method: AREA_CONTEXT_METHOD,
    premium: e.premium,
    basis: e.basis,
  };
}
