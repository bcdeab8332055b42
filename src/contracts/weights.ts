// Caller factor weights of the strategy blend (v1 `underwrite` tool): spec keys only, each 0-1; and the factor keys
// per strategy. Normalization and defaults are scoring's (scoring/weights.ts).
import { z } from 'zod';

const w = z.number().min(0).max(1);

export const WeightsSchema = z
  .strictObject({
    flip: z.strictObject({ margin: w, velocity: w, trend: w }).partial(),
    brrrr: z.strictObject({ ratio: w, dscr: w }).partial(),
    hold: z.strictObject({ coc: w, risk: w }).partial(),
  })
  .partial();
export type Weights = z.infer<typeof WeightsSchema>;

export const FACTOR_KEYS = {
  flip: ['margin', 'velocity', 'trend'],
  brrrr: ['ratio', 'dscr'],
  hold: ['coc', 'risk'],
  house_hack: ['savings'],
} as const;
