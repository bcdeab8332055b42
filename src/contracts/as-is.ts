// As-is value (valuation.value_as_is): median of the dated/distressed stratum, labeled, never blended into arv (INV-8).
import { z } from 'zod';

export const AS_IS_BASES = ['primary', 'relaxed', 'mixed_condition_haircut'] as const;

export const AsIsSchema = z.object({
  value: z.number().positive().nullable(),
  low: z.number().nonnegative().nullable(),
  high: z.number().nonnegative().nullable(),
  n_comps: z.number().int().nonnegative(),
  as_is_basis: z.enum(AS_IS_BASES).nullable().optional(),
});
export type AsIs = z.infer<typeof AsIsSchema>;
