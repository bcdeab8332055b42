// Tax (valuation.tax) of the spec, with the Board-of-Review appeal scenario.
import { z } from 'zod';
import { CountySchema } from './subject.js';

export const TAX_TARGET_BASES = ['arv', 'price', 'area_estimate'] as const;

export const TaxAppealSchema = z.object({
  est_av_reduction_pct: z.number(),
  est_annual_savings: z.number(),
  locked_years: z.number().int().nonnegative(),
  note: z.string(),
});
export type TaxAppeal = z.infer<typeof TaxAppealSchema>;

export const TaxSchema = z.object({
  current_annual: z.number().nonnegative().nullable(),
  predictive_annual: z.number().nonnegative().nullable(),
  /** `arv` only when the valuation is point-actionable; `area_estimate` when the forward value came from area context. */
  target_basis: z.enum(TAX_TARGET_BASES),
  county: CountySchema,
  /** Values seen: `cook_equalized`, `lake_median_rate`. */
  method: z.string().min(1),
  shock_flag: z.boolean().optional(),
  next_reassess_year: z.number().int().nullable().optional(),
  exemptions_assumed: z.number().nullable().optional(),
  confidence: z.string().nullable().optional(),
  appeal: TaxAppealSchema.nullable().optional(),
});
export type Tax = z.infer<typeof TaxSchema>;
