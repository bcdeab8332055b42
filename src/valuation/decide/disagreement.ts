// Approaches disagree: comp (Tier-1) value vs model (hedonic_v1) value. When abs(comp − model)/mean exceeds
// model_disagreement_frac (0.12) the interval is stretched to cover the model's own band too, and the warning
// `approaches_disagree` is raised. The ladder's Tier-1 band calls this rule (one rule, not two).
import { AppError } from '../../errors/app-error.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';

export const APPROACHES_DISAGREE = 'approaches_disagree';

export type Disagreement = {
  /** abs(comp − model) / ((comp + model) / 2). */
  gapFrac: number;
  /** widened_by_model_disagreement: the relative gap when it widened the band, else null. */
  widenedBy: number | null;
  low: number;
  high: number;
  warnings: string[];
};

/**
 * Widening: low = min(low, q80Lo × model), high = max(high, q80Hi × model) with the segment's calibrated conformal
 * quantiles (the model value carried through the same calibrated margin); uncalibrated: min(low, model) and
 * max(high, model). The band only grows; within the threshold it is returned unchanged.
 */
export function assessDisagreement(a: { compValueUsd: number; modelValueUsd: number; lowUsd: number; highUsd: number; calibration: { q80Lo: number; q80Hi: number } | null }): Disagreement {
  if (!(a.compValueUsd > 0 && a.modelValueUsd > 0)) throw new AppError('internal_error', 'disagreement needs two positive values');
  const gapFrac = Math.abs(a.compValueUsd - a.modelValueUsd) / ((a.compValueUsd + a.modelValueUsd) / 2);
  if (gapFrac <= VALUATION_DISPLAY.v.model_disagreement_frac) return { gapFrac, widenedBy: null, low: a.lowUsd, high: a.highUsd, warnings: [] };
  const m = a.modelValueUsd, cal = a.calibration;
  return {
    gapFrac,
    widenedBy: gapFrac,
    low: Math.min(a.lowUsd, cal ? cal.q80Lo * m : m),
    high: Math.max(a.highUsd, cal ? cal.q80Hi * m : m),
    warnings: [APPROACHES_DISAGREE],
  };
}
