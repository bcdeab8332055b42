// Area context (valuation.area_context): the neighborhood-premium estimate. Never property-specific, never in arv.
import { z } from 'zod';
import { VALUATION_DISPLAY } from '../registry/groups/valuation.js';

export const AREA_CONTEXT_LABEL = 'Area estimate — not property-specific';
export const AREA_CONTEXT_METHOD = 'nbhd_premium';

export const AreaContextSchema = z.object({
  value: z.number().positive(),
  /** Rendered verbatim by consumers. */
  label: z.literal(AREA_CONTEXT_LABEL),
  low: z.number().nonnegative().nullable().optional(),
  high: z.number().nonnegative().nullable().optional(),
  confidence: z.number().min(0).max(VALUATION_DISPLAY.v.area_context_confidence_max).nullable().optional(),
  method: z.literal(AREA_CONTEXT_METHOD).optional(),
  premium: z.record(z.string(), z.unknown()).nullable().optional(),
  basis: z.string().nullable().optional(),
});
export type AreaContext = z.infer<typeof AreaContextSchema>;
