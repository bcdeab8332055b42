// The as-is vs ARV consistency check: a dated or distressed house should not be worth more as is than renovated, so
// an as-is value above the served ARV raises `as_is_exceeds_arv` (one of the two rests on thin or mismatched comps).
// It flags and never corrects: neither value changes, and as-is never enters arv (INV-8).
import type { Arv } from '../../contracts/arv.js';
import type { AsIs } from '../../contracts/as-is.js';
import type { VALUATION_WARNINGS } from '../../contracts/valuation.js';
import { displayAsIs } from '../decide/ladder.js';

export const AS_IS_EXCEEDS_ARV_WARNING = 'as_is_exceeds_arv' satisfies (typeof VALUATION_WARNINGS)[number];

/**
 * Compares displayed (rounded) amounts: the as-is value against the served ARV point, or against the range's high
 * when the ARV is range-only. No served ARV (suppressed, area context) or no as-is value: nothing to compare.
 */
export function asIsVsArvWarnings(asIs: AsIs | null, arv: Pick<Arv, 'value' | 'high' | 'range_only'>): string[] {
  const asIsUsd = asIs ? displayAsIs(asIs).value : null;
  const servedUsd = arv.range_only === true ? arv.high : arv.value;
  return asIsUsd !== null && servedUsd !== null && servedUsd !== undefined && asIsUsd > servedUsd ? [AS_IS_EXCEEDS_ARV_WARNING] : [];
}
