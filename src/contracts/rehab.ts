// Rehab (valuation.rehab) of the spec: estimate, scope, $/sf base and multipliers.
import { z } from 'zod';

export const REHAB_SCOPE_VALUES = ['cosmetic', 'moderate', 'gut', 'structural'] as const;

export const RehabSchema = z.object({
  estimate: z.number().nonnegative().nullable(),
  scope: z.enum(REHAB_SCOPE_VALUES),
  psf_base: z.number().nonnegative(),
  multipliers: z.object({ violations: z.number(), age: z.number(), mechanicals: z.number() }),
  scope_source: z.string().optional(),
  registry_version: z.string().optional(),
});
export type RehabContract = z.infer<typeof RehabSchema>;
