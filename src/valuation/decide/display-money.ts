// Displayed money: the display ladder's one rounding rule, in a module of its own so the browser's evidence panel
// (src/web/client/) rounds with the same code as the server without bundling the ladder and its schemas.
import { AppError } from '../../errors/app-error.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';

/** Distance to a rounding step under which an amount is on the step (float noise, not money). */
const ON_STEP_USD = 1e-6;

export type RoundMode = 'nearest' | 'down' | 'up';

/**
 * Displayed USD: ≥ money_round_threshold_usd ($100k) to the nearest $1,000, below it to the nearest $100.
 * Bounds round outward (low 'down', high 'up') so rounding never narrows a served interval. Half rounds up. An amount
 * within a millionth of a dollar of a step counts as on it: 1.12 × 300,000 is 336,000.00000000006 in binary floating
 * point, and float noise must not push a bound a whole step out.
 */
export function roundDisplayedUsd(usd: number, mode: RoundMode = 'nearest'): number {
  if (!Number.isFinite(usd)) throw new AppError('internal_error', `cannot display a non-finite amount: ${usd}`);
  const v = VALUATION_DISPLAY.v;
  const step = Math.abs(usd) >= v.money_round_threshold_usd ? v.money_round_step_large_usd : v.money_round_step_small_usd;
  const raw = usd / step;
  const q = Math.abs(raw - Math.round(raw)) * step < ON_STEP_USD ? Math.round(raw) : raw;
  const r = mode === 'down' ? Math.floor(q) : mode === 'up' ? Math.ceil(q) : Math.floor(q + 0.5);
  return r * step + 0; // + 0 turns -0 into 0
}
