// Rent (valuation.rent): legacy aliases, SAFMR unit mix, and the four never-blended fields
// (as_is_contract, stabilized_post_reno, context, rent_confidence).
import { z } from 'zod';

/** ± band as a fraction, clamped to [0.08, 0.25] (spec Rent; Limits). */
export const RENT_INTERVAL_PCT_RANGE = [0.08, 0.25] as const;

export const RentEstimateSchema = z.object({
  value: z.number().nonnegative().nullable(),
  low: z.number().nonnegative().nullable(),
  high: z.number().nonnegative().nullable(),
  confidence: z.number().min(0).max(100).nullable(),
  interval_pct: z.number().min(RENT_INTERVAL_PCT_RANGE[0]).max(RENT_INTERVAL_PCT_RANGE[1]),
  evidence: z.array(z.record(z.string(), z.unknown())),
});
export type RentEstimate = z.infer<typeof RentEstimateSchema>;

export const UnitMixItemSchema = z.object({
  beds: z.number().int().nonnegative().nullable(),
  count: z.number().int().nonnegative(),
  safmr: z.number().nonnegative().nullable(),
  est: z.number().nonnegative().nullable(),
});
export type UnitMixItem = z.infer<typeof UnitMixItemSchema>;

/** Context only; never anchors the estimate. */
export const RentContextSchema = z.object({
  acs_gross: z.number().nullable(),
  safmr_2br_equiv: z.number().nullable(),
  zori_zip: z.number().nullable(),
});
export type RentContext = z.infer<typeof RentContextSchema>;

export const RentSchema = z.object({
  /** Legacy alias equal to as_is_contract.value. */
  market: z.number().nonnegative().nullable(),
  /** Legacy alias equal to stabilized_post_reno.value. */
  reno: z.number().nonnegative().nullable(),
  s8: z.number().nonnegative().nullable(),
  /** Values seen: `safmr_anchored`, `mls_blended`. */
  method: z.string().min(1),
  mu: z.number().min(0).max(1).nullable().optional(),
  confidence: z.number().min(0).max(100).nullable(),
  unit_mix: z.array(UnitMixItemSchema).optional(),
  warnings: z.array(z.string()).optional(),
  as_is_contract: RentEstimateSchema.nullable().optional(),
  stabilized_post_reno: RentEstimateSchema.nullable().optional(),
  context: RentContextSchema.nullable().optional(),
  rent_confidence: z.enum(['low', 'medium']).nullable().optional(),
});
export type Rent = z.infer<typeof RentSchema>;
