// The valuation artifact (valuation.artifact) and the one derivation of the displayed valuation from it.
// Every serving path (REST, MCP, listing scoring) calls deriveDisplayedValuation; nothing else assembles arv.
import type { Artifact, FallbackAttempt } from '../contracts/artifact.js';
import type { AppraisalCeiling, Arv, FlipPairsSummary, Premium, PriorSale } from '../contracts/arv.js';
import type { AsIs } from '../contracts/as-is.js';
import type { Comp, CompRejection } from '../contracts/comp.js';
import type { RehabContract } from '../contracts/rehab.js';
import type { Rent } from '../contracts/rent.js';
import type { Subject } from '../contracts/subject.js';
import type { Tax } from '../contracts/tax.js';
import { DISCLOSURE, type Valuation } from '../contracts/valuation.js';
import { assertValuationInvariants } from '../contracts/valuation-invariants.js';
import { AppError } from '../errors/app-error.js';
import { inputsHash, type InputsHashParts } from './inputs-hash.js';
import { displayAreaContext, displayAsIs, displayTier1Arv, pointUsdOf, toValuationDisplay, type ArvDisplay, type LadderDecision } from './decide/ladder.js';

export type BuildArtifactInput = {
  modelVersion: string;
  /** ISO date (or timestamp) the valuation was computed; not part of the inputs hash. */
  asOf: string;
  subject: Subject;
  /** Accepted comps behind the Tier-1 value, kernel order (at most 12). */
  compsUsed: Comp[];
  compsRejected: CompRejection[];
  /** Ordered comp-source attempts (FALLBACK_SOURCES: corpus, the open-data and Lake GIS sources, then none), as tried. */
  fallbackChain: FallbackAttempt[];
  warnings: string[];
  vintages: Record<string, unknown> | null;
  asIs: AsIs | null;
  decision: LadderDecision;
  /** Everything hashed except the subject, which is taken from `subject` so the two cannot diverge. */
  hashParts: Omit<InputsHashParts, 'subject'>;
};

/** Builds the artifact: unrounded evidence, the ladder's Tier-1 record (or its null reason) and the inputs hash. */
export function buildArtifact(input: BuildArtifactInput): Artifact {
  const { decision } = input;
  if (input.hashParts.versions.model !== input.modelVersion) {
    throw new AppError('internal_error', `inputs hash versions.model ${input.hashParts.versions.model} ≠ model_version ${input.modelVersion}`);
  }
  if (input.fallbackChain.length === 0) throw new AppError('internal_error', 'fallback_chain records at least one comp-source attempt');
  if (decision.artifactArv && input.compsUsed.length !== decision.artifactArv.n_comps) {
    throw new AppError('internal_error', `comps_used has ${input.compsUsed.length} comps but the Tier-1 value used ${decision.artifactArv.n_comps}`);
  }
  return {
    model_version: input.modelVersion,
    as_of: input.asOf,
    inputs_hash: inputsHash({ ...input.hashParts, subject: input.subject }),
    subject: input.subject,
    comps_used: input.compsUsed,
    comps_rejected: input.compsRejected,
    fallback_chain: input.fallbackChain,
    warnings: mergeWarnings(input.warnings, decision.warnings),
    as_is: input.asIs,
    arv: decision.artifactArv,
    arv_null_reason: decision.arvNullReason,
    area_context: decision.areaContext,
    vintages: input.vintages,
  };
}

/** Evidence fields of arv that are not decided by the ladder (produced by the comp assembly). */
export type ArvEvidence = {
  flip_pairs?: Array<Record<string, unknown>>;
  flip_pairs_summary?: FlipPairsSummary | null;
  appraisal_ceiling?: AppraisalCeiling | null;
  prior_sale?: PriorSale | null;
  time_index_note?: string | null;
  /** Tier 2 only. */
  premium?: Premium | null;
};

export type DisplayedValuationParts = {
  rent: Rent;
  rehab: RehabContract;
  /** target_basis must be `arv` only when the decision is point-actionable (checked). */
  tax: Tax;
  noiImpliedValue?: number | null;
  /** Why noiImpliedValue is null (income.ts IncomeNullReason); null when it is published. */
  noiImpliedValueNullReason?: string | null;
  arvEvidence?: ArvEvidence;
  /** Embed the artifact in the payload (default true). */
  includeArtifact?: boolean;
};

/**
 * The displayed valuation, derived from the artifact: Tier-1 money comes from artifact.arv through the ladder's
 * rounding; other outcomes from the decision that built the artifact. Throws internal_error when artifact and
 * decision disagree or the result breaks a contract invariant (a bug must not reach a caller as a number).
 */
export function deriveDisplayedValuation(artifact: Artifact, decision: LadderDecision, parts: DisplayedValuationParts): Valuation {
  checkPairing(artifact, decision);
  const isTier1 = decision.outcome === 'point' || decision.outcome === 'range';
  const ladderArv = isTier1 && artifact.arv ? displayTier1Arv(artifact.arv) : decision.arv;
  const arv: Arv = { ...ladderArv, comps: isTier1 ? artifact.comps_used : [], ...parts.arvEvidence };
  const valuation: Valuation = {
    model_version: artifact.model_version,
    as_of: artifact.as_of,
    inputs_hash: artifact.inputs_hash,
    subject: artifact.subject,
    arv,
    value_as_is: artifact.as_is ? displayAsIs(artifact.as_is) : null,
    rent: parts.rent,
    rehab: parts.rehab,
    tax: parts.tax,
    noi_implied_value: parts.noiImpliedValue ?? null,
    noi_implied_value_null_reason: (parts.noiImpliedValue ?? null) === null ? (parts.noiImpliedValueNullReason ?? null) : null,
    warnings: artifact.warnings,
    area_context: artifact.area_context ? displayAreaContext(artifact.area_context) : null,
    artifact: parts.includeArtifact === false ? null : artifact,
    disclosure: DISCLOSURE,
    display: toValuationDisplay(decision),
  };
  const violations = assertValuationInvariants(valuation);
  if (violations.length > 0) {
    throw new AppError('internal_error', `valuation breaks ${violations.length} contract invariant(s): ${violations.map((v) => `${v.rule} ${v.path}`).join('; ')}`, { details: violations });
  }
  return valuation;
}

/** What scoring reads of a valuation: the displayed fields without the evidence (comps, artifact, inputs hash). */
export type ScorableValuation = Pick<Valuation, 'model_version' | 'as_of' | 'subject' | 'value_as_is' | 'rent' | 'rehab' | 'tax' | 'display'> & Partial<Pick<Valuation, 'warnings'>> & {
  inputs_hash: string | null;
  arv: Pick<Arv, keyof ArvDisplay>;
};

/**
 * The ARV that point economics may use: the displayed point when the ladder said point, else null
 * (callers then return economics as null with valuation.display.unscored_reason).
 */
export function pointArvUsd(v: Pick<ScorableValuation, 'display' | 'arv'>): number | null {
  return v.display?.point_actionable === true && v.arv.range_only === false ? v.arv.value : null;
}

/**
 * The forward value a tax projection may use (tax.target_basis): the displayed point ARV only when point-actionable,
 * else the displayed area estimate when the outcome is area context, else the caller's price (value null here).
 */
export function forwardValueBasis(d: LadderDecision): { basis: 'arv' | 'area_estimate' | 'price'; valueUsd: number | null } {
  const point = pointUsdOf(d);
  if (point !== null) return { basis: 'arv', valueUsd: point };
  if (d.outcome === 'area_context' && d.areaContext) return { basis: 'area_estimate', valueUsd: displayAreaContext(d.areaContext).value };
  return { basis: 'price', valueUsd: null };
}

function checkPairing(artifact: Artifact, decision: LadderDecision): void {
  const a = artifact.arv ?? null;
  const d = decision.artifactArv;
  const same = a === null || d === null ? a === d : a.value === d.value && a.method === d.method && a.n_comps === d.n_comps && a.range_only === d.range_only;
  if (!same || (artifact.arv_null_reason ?? null) !== decision.arvNullReason) {
    throw new AppError('internal_error', 'artifact and ladder decision come from different valuations');
  }
}

function mergeWarnings(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}
