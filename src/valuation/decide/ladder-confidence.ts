// The DEPRECATED legacy confidence heuristic (arv.confidence); confidence_p10 from calibration supersedes it.
// Approximates the same quantity parametrically: P(|error| ≤ 10%) × 100 under a normal error, minus ladder penalties.
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';

/**
 * erf by Abramowitz & Stegun 7.1.26 (|error| ≤ 1.5e-7). The coefficients are that formula's published
 * constants, not tunables.
 */
export function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const ax = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * ax);
  const poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t;
  return sign * (1 - poly * Math.exp(-ax * ax));
}

/**
 * Legacy confidence, 0–100 integer:
 *   sdPct = fsdPct × sqrt(1 + 1/nComps)   (prediction-interval inflation for a mean of n comps)
 *   p     = P(|Z·sdPct| ≤ band) = erf(band / (sdPct·√2)),  band = ppe_band_frac × 100 = 10 percent
 *   conf  = round(100·p − ladder_confidence_penalty × (ladderStep − 1)), clamped to [0, 100].
 * fsdPct 0 gives 100 before penalties. nComps = Infinity drops the inflation (model-based tiers).
 * Returns null when fsdPct is unknown.
 */
export function legacyConfidence(fsdPct: number | null, nComps: number, ladderStep: number | null): number | null {
  if (fsdPct === null || !Number.isFinite(fsdPct)) return null;
  const bandPct = VALUATION_DISPLAY.v.ppe_band_frac * 100;
  const inflation = Number.isFinite(nComps) && nComps > 0 ? Math.sqrt(1 + 1 / nComps) : 1;
  const sdPct = fsdPct * inflation;
  const p = sdPct === 0 ? 1 : erf(bandPct / (sdPct * Math.SQRT2));
  const stepsPast1 = ladderStep === null ? 0 : Math.max(0, ladderStep - 1);
  const conf = Math.round(100 * p - COMP_POLICY.v.ladder_confidence_penalty * stepsPast1);
  return Math.min(100, Math.max(0, conf));
}

export type FsdTier = 'high' | 'medium' | 'low';

/** fsd tiers of the spec: high ≤ 13, medium ≤ 20, low > 20 (percent). */
export function fsdTier(fsdPct: number): FsdTier {
  if (fsdPct <= COMP_POLICY.v.fsd_tier_high_max) return 'high';
  if (fsdPct <= COMP_POLICY.v.fsd_tier_medium_max) return 'medium';
  return 'low';
}
