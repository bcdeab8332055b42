// GET /api/tracts/chicago: the mapped Cook and Lake tracts (1,662 in the generator 3.0.0 corpus) with their location signals (null until computed).
import { z } from 'zod';

export const GeoidSchema = z.string().regex(/^17(031|097)\d{6}$/, 'an 11-digit Cook (17031) or Lake (17097) census tract GEOID');

export const TractRecordSchema = z.object({
  geoid: GeoidSchema,
  county: z.enum(['cook', 'lake']),
  muni: z.string().nullable(),
  flip_score: z.number().min(0).max(100).nullable(),
  brrrr_score: z.number().min(0).max(100).nullable(),
  effective_tax_rate: z.number().nonnegative().nullable(),
  reassessment_shock: z.number().nullable(),
  reassessment_status: z.string().nullable(),
  section8_gap: z.number().nullable(),
  safmr_2br: z.number().nonnegative().nullable(),
});
export type TractRecord = z.infer<typeof TractRecordSchema>;

export const TractListSchema = z.object({
  vintage: z.string(),
  count: z.number().int().nonnegative(),
  tracts: z.array(TractRecordSchema),
});
export type TractList = z.infer<typeof TractListSchema>;
