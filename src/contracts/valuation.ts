// Valuation object (investor.valuation) of the spec, with the disclosure string and the display-ladder outcome.
// Cross-field rules (INV-5, INV-8, range-only, parity) are in valuation-invariants.ts; the ladder produces them.
import { z } from 'zod';
import { AreaContextSchema } from './area-context.js';
import { ArtifactSchema } from './artifact.js';
import { ArvSchema } from './arv.js';
import { AsIsSchema } from './as-is.js';
import { RehabSchema } from './rehab.js';
import { RentSchema } from './rent.js';
import { IsoDateSchema, SubjectSchema } from './subject.js';
import { TaxSchema } from './tax.js';

/** Carried by every valuation payload; consumers relay it wherever a human sees a number. */
export const DISCLOSURE =
  'Automated valuation model output, not an appraisal. Screening estimate (about ±20%); error rates are published at ' +
  '/api/metrics/scorecard. Not for tenant screening, credit, employment or insurance decisions (FCRA).';

export const VALUATION_WARNINGS = [
  'approaches_disagree', 'as_is_thin_evidence', 'income_approach_diverges', 'as_is_exceeds_arv',
  // Beside a suppression or area context (no Tier-1 answer): why Tier 2 did not step in — no hedonic value for the
  // subject's segment (segment not fit, location unresolved, no model) or a segment that failed its calibration gates.
  'tier2_unavailable', 'tier2_segment_not_calibrated',
] as const;

/** Display-ladder outcomes (spec States and transitions, Valuation outcome). */
export const VALUATION_OUTCOMES = ['point', 'range', 'tier2_range', 'area_context', 'suppressed'] as const;
export const ValuationOutcomeSchema = z.enum(VALUATION_OUTCOMES);
export type ValuationOutcome = z.infer<typeof ValuationOutcomeSchema>;

/** Why economics and strategy scores are null (tool outputs' `unscored_reason`). */
export const UNSCORED_REASONS = ['valuation_range_only', 'valuation_area_context', 'valuation_suppressed', 'valuation_stale'] as const;
export const UnscoredReasonSchema = z.enum(UNSCORED_REASONS);
export type UnscoredReason = z.infer<typeof UnscoredReasonSchema>;

export const SCORE_BASES = ['arv', 'area_estimate'] as const;

/**
 * The ladder's verdict, carried as an additional property so every consumer checks one flag:
 * point-derived numbers (offers, profit, NOI, DSCR, CoC, cashflow, strategy scores) only when point_actionable.
 */
export const ValuationDisplaySchema = z.object({
  outcome: ValuationOutcomeSchema,
  point_actionable: z.boolean(),
  unscored_reason: UnscoredReasonSchema.nullable(),
  /** Basis a deal score may use: `arv` (point), `area_estimate` (capped), or null (no deal score). */
  score_basis: z.enum(SCORE_BASES).nullable(),
  deal_score_cap: z.number().min(0).max(100).nullable(),
});
export type ValuationDisplay = z.infer<typeof ValuationDisplaySchema>;

export const ValuationSchema = z.looseObject({
  model_version: z.string().min(1),
  as_of: IsoDateSchema,
  /** Reproducibility fingerprint (valuation/inputs-hash.ts); not anonymization, not a security hash. */
  inputs_hash: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest'),
  subject: SubjectSchema,
  arv: ArvSchema,
  value_as_is: AsIsSchema.nullable(),
  rent: RentSchema,
  rehab: RehabSchema,
  tax: TaxSchema,
  /** Income-approach cross-check only; never sets ARV; published only when plausible (positive NOI, within the income group's band of the comp ARV). */
  noi_implied_value: z.number().nullable().optional(),
  /** Why noi_implied_value is null (e.g. `outside_plausible_band`, `noi_not_positive`, `valuation_not_point`); null when published. */
  noi_implied_value_null_reason: z.string().nullable().optional(),
  warnings: z.array(z.string()),
  area_context: AreaContextSchema.nullable().optional(),
  artifact: ArtifactSchema.nullable().optional(),
  disclosure: z.literal(DISCLOSURE),
  display: ValuationDisplaySchema.optional(),
});
export type Valuation = z.infer<typeof ValuationSchema>;
