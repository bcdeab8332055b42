// ARV (valuation.arv) of the spec, field by field, with its enums: methods, suppression and range reasons.
// Which values are allowed together (tiers, range_only, suppression) is checked in valuation-invariants.ts.
import { z } from 'zod';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { CompSchema } from './comp.js';

export const TIER1_METHODS = ['renovated_comps', 'lake_gis_comps'] as const;
/** `nbhd_premium` is deliberately absent: it is never a valid arv method (it lives in area_context). */
export const ARV_METHODS = [...TIER1_METHODS, 'hedonic_v1', 'suppressed'] as const;
export const ArvMethodSchema = z.enum(ARV_METHODS);
export type ArvMethod = z.infer<typeof ArvMethodSchema>;
export const Tier1MethodSchema = z.enum(TIER1_METHODS);
export type Tier1Method = z.infer<typeof Tier1MethodSchema>;

export const SUPPRESSION_REASONS = [
  'insufficient_renovated_comps',
  'tract_not_ingested',
  'dispersion_exceeds_threshold',
  'outside_mapped_tracts',
  'luxury_thin_comps',
  'condo_model_unavailable',
] as const;
export const SuppressionReasonSchema = z.enum(SUPPRESSION_REASONS);
export type SuppressionReason = z.infer<typeof SuppressionReasonSchema>;

export const RANGE_REASONS = ['thin_comps', 'calibration_display_gate', 'thin_comps+calibration_display_gate', 'hedonic_tier2_always_range'] as const;
export const RangeReasonSchema = z.enum(RANGE_REASONS);
export type RangeReason = z.infer<typeof RangeReasonSchema>;

export const INTERVAL_METHODS = ['split_conformal', 'hedonic_sigma_x_conformal'] as const;

export const Score100Schema = z.number().min(0).max(100);

export const IntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  /** Nominal coverage of the band as a probability (0.8 for the split-conformal 80% interval). */
  coverage: z.number().gt(0).lt(1),
  calibrated: z.boolean(),
  segment: z.string().min(1),
  method: z.enum(INTERVAL_METHODS),
  version: z.string().nullable(),
  /** abs(comp − model)/mean when it exceeded 0.12 and widened the band; else null. */
  widened_by_model_disagreement: z.number().nonnegative().nullable(),
  /**
   * Set when the subject's calibration segment has no row of its own (too few calibration sales) and a declared
   * fallback row served the interval (`segment` then names that row): never an uncalibrated band.
   */
  calibration_fallback: z.object({ for_segment: z.string(), reason: z.string() }).nullable().optional(),
});
export type Interval = z.infer<typeof IntervalSchema>;

/** Empirical comp interquartile range in USD (pre-calibration), kept for transparency. */
export const CompRangeSchema = z.object({ low: z.number(), high: z.number() });
export type CompRange = z.infer<typeof CompRangeSchema>;

export const FlipPairsSummarySchema = z.object({
  n: z.number().int().nonnegative(),
  median_uplift_pct: z.number().nullable(),
  sample: z.array(z.record(z.string(), z.unknown())).max(5),
});
export type FlipPairsSummary = z.infer<typeof FlipPairsSummarySchema>;

export const PremiumSchema = z.object({ value: z.number(), n_pairs: z.number().int().nonnegative(), shrunk_from: z.number().nullable() });
export type Premium = z.infer<typeof PremiumSchema>;

export const AppraisalCeilingSchema = z.object({ flag: z.boolean(), max_reno_sale_24mo: z.number().nullable() });
export type AppraisalCeiling = z.infer<typeof AppraisalCeilingSchema>;

export const HedonicModelSchema = z.object({
  value: z.number(),
  location_basis: z.string().nullable(),
  quarter_used: z.string().nullable(),
  segment: z.string().nullable(),
});
export type HedonicModel = z.infer<typeof HedonicModelSchema>;

const MAX_COMPS = COMP_POLICY.v.max_comps;

/**
 * The subject's own earlier arms-length sale as Tier-1 evidence (valuation/comps/prior-sale.ts): carried to the as-of
 * date by the county index, compared with the comps value; the served value is the comps value × factor, factor =
 * exp(weight × log_gap) with the weight the champion calibration fitted for the sale's condition group (0: no move).
 */
/** Condition groups of an earlier sale, each with its own fitted weight: a renovated/new sale shows the house as ARV values it. */
export const PRIOR_SALE_GROUPS = ['renovated', 'other'] as const;

export const PriorSaleSchema = z.object({
  sale_date: z.string(),
  price: z.number().positive(),
  condition_group: z.enum(PRIOR_SALE_GROUPS),
  index_factor: z.number().positive(),
  /** The carried price and the comps' value are values of this property: null unless the valuation is a point. */
  carried_value: z.number().positive().nullable(),
  comps_value: z.number().positive().nullable(),
  log_gap: z.number(),
  weight: z.number().min(0).max(1),
  factor: z.number().positive(),
});

export const ArvSchema = z.object({
  value: z.number().positive().nullable(),
  low: z.number().nonnegative().nullable(),
  high: z.number().nonnegative().nullable(),
  /** DEPRECATED legacy heuristic (see valuation/ladder.ts legacyConfidence); use confidence_p10. */
  confidence: Score100Schema.nullable(),
  confidence_p10: Score100Schema.nullable().optional(),
  /** Robust dispersion proxy in percent; tiers high ≤ 13, medium ≤ 20, low > 20. */
  fsd: z.number().nonnegative().nullable().optional(),
  method_tier: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
  method: ArvMethodSchema,
  comps: z.array(CompSchema).max(MAX_COMPS).optional(),
  flip_pairs: z.array(z.record(z.string(), z.unknown())).optional(),
  flip_pairs_summary: FlipPairsSummarySchema.nullable().optional(),
  premium: PremiumSchema.nullable().optional(),
  suppression_reason: SuppressionReasonSchema.nullable().optional(),
  appraisal_ceiling: AppraisalCeilingSchema.nullable().optional(),
  prior_sale: PriorSaleSchema.nullable().optional(),
  time_index_note: z.string().nullable().optional(),
  range_only: z.boolean().nullable().optional(),
  n_comps: z.number().int().min(0).max(MAX_COMPS).nullable().optional(),
  ladder_step: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable().optional(),
  interval: IntervalSchema.nullable().optional(),
  segment: z.string().nullable().optional(),
  range_reason: RangeReasonSchema.nullable().optional(),
  comp_range: CompRangeSchema.nullable().optional(),
  model: HedonicModelSchema.nullable().optional(),
});
export type Arv = z.infer<typeof ArvSchema>;
export type PriorSale = z.infer<typeof PriorSaleSchema>;
