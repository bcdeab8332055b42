// Builds the ladder's Tier-2 evidence (valuation/ladder-evidence.ts HedonicEvidence) from a hedonic prediction.
// Decides nothing: display eligibility and the same-county rule are applied by valuation/decide/ladder.ts.
import type { HedonicEvidence } from '../decide/ladder-evidence.js';
import { predictHedonic } from './predict.js';
import type { HedonicModel, HedonicPrediction, HedonicSubject } from './types.js';

/** The ladder evidence for a subject, or null when no hedonic value exists (segment not fit, location unresolved). */
export function hedonicEvidence(model: HedonicModel, subject: HedonicSubject): { evidence: HedonicEvidence; prediction: HedonicPrediction } | null {
  const pred = predictHedonic(model, subject);
  if (!pred) return null;
  const fit = model.segments[subject.segment];
  const evidence: HedonicEvidence = {
    segment: pred.segment,
    version: model.version,
    displayEligible: fit.displayEligible,
    locationResolved: true,
    valueUsd: pred.value,
    lowUsd: pred.low,
    highUsd: pred.high,
    sigmaPct: fit.sigma * 100,
    confidenceP10: fit.calibration ? fit.calibration.ppe10 * 100 : null,
    locationBasis: pred.location_basis,
    quarterUsed: pred.quarter_used,
  };
  return { evidence, prediction: pred };
}
