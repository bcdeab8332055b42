// Artifact (valuation.artifact): the single valuation record every serving path derives its displayed value from.
// Money here is unrounded evidence; rounding for display happens only in valuation/ladder.ts.
import { z } from 'zod';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { AreaContextSchema } from './area-context.js';
import { CompRangeSchema, IntervalSchema, RangeReasonSchema, Score100Schema, SuppressionReasonSchema, Tier1MethodSchema } from './arv.js';
import { AsIsSchema } from './as-is.js';
import { CompRejectionSchema, CompSchema } from './comp.js';
import { IsoDateSchema, SubjectSchema } from './subject.js';

export const FALLBACK_SOURCES = ['corpus', 'opendata_fallback', 'opendata', 'opendata_forced', 'lake_gis', 'none'] as const;
export const FallbackSourceSchema = z.enum(FALLBACK_SOURCES);
export type FallbackSource = z.infer<typeof FallbackSourceSchema>;

export const FallbackAttemptSchema = z.object({
  source: FallbackSourceSchema,
  served: z.boolean(),
  fields_missing: z.array(z.string()).optional(),
  note: z.string(),
});
export type FallbackAttempt = z.infer<typeof FallbackAttemptSchema>;

/**
 * Tier-1 comp-stratified ARV only (tier constant 1). `value` stays a number even when range_only is true:
 * the artifact keeps the evidence, the ladder decides what is displayed. The optional fields after `tier`
 * carry what the ladder needs to re-derive the display from the artifact alone.
 */
export const ArtifactArvSchema = z.object({
  value: z.number().positive(),
  low: z.number().nonnegative().nullable(),
  high: z.number().nonnegative().nullable(),
  confidence: Score100Schema.nullable(),
  n_comps: z.number().int().min(COMP_POLICY.v.min_comps_value).max(COMP_POLICY.v.max_comps),
  range_only: z.boolean(),
  method: Tier1MethodSchema,
  tier: z.literal(1),
  range_reason: RangeReasonSchema.nullable().optional(),
  confidence_p10: Score100Schema.nullable().optional(),
  fsd: z.number().nonnegative().nullable().optional(),
  ladder_step: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable().optional(),
  segment: z.string().nullable().optional(),
  interval: IntervalSchema.nullable().optional(),
  comp_range: CompRangeSchema.nullable().optional(),
});
export type ArtifactArv = z.infer<typeof ArtifactArvSchema>;

export const ArtifactSchema = z.object({
  model_version: z.string().min(1),
  as_of: IsoDateSchema,
  inputs_hash: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest'),
  subject: SubjectSchema,
  comps_used: z.array(CompSchema).max(COMP_POLICY.v.max_comps),
  comps_rejected: z.array(CompRejectionSchema),
  fallback_chain: z.array(FallbackAttemptSchema).min(1),
  warnings: z.array(z.string()),
  as_is: AsIsSchema.nullable().optional(),
  arv: ArtifactArvSchema.nullable().optional(),
  arv_null_reason: SuppressionReasonSchema.nullable().optional(),
  area_context: AreaContextSchema.nullable().optional(),
  vintages: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type Artifact = z.infer<typeof ArtifactSchema>;
