// Caller factor weights of the strategy blend (v1 `underwrite` tool): spec keys only, each 0-1; and the factor keys
// per strategy. Normalization and defaults are scoring's (scoring/weights.ts); what each factor measures is
// scoring/raw-score.ts's, described here for callers.
import { z } from 'zod';

const w = (factor: string) => z.number().min(0).max(1).describe(`weight of ${factor}, 0-1 (a strategy's weights are normalized to sum 1; a key left out counts 0)`);

export const WeightsSchema = z
  .strictObject({
    flip: z.strictObject({ margin: w('profit margin'), velocity: w('speed (shorter hold)'), trend: w('tract price trend') }).partial().describe('flip factor weights'),
    brrrr: z.strictObject({ ratio: w('capital recovered at refinance'), dscr: w('debt service coverage') }).partial().describe('brrrr factor weights'),
    hold: z.strictObject({ coc: w('cash-on-cash return'), risk: w('low risk score') }).partial().describe('hold factor weights'),
  })
  .partial();
export type Weights = z.infer<typeof WeightsSchema>;

export const FACTOR_KEYS = {
  flip: ['margin', 'velocity', 'trend'],
  brrrr: ['ratio', 'dscr'],
  hold: ['coc', 'risk'],
  house_hack: ['savings'],
} as const;
