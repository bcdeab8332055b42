// The score columns of bulk scoring and their outcome codes, shared by the column scorer (score-columns.ts), the
// score-all run and the worker task. Imports no scorer, so that none of those reach each other through it.
import { STRATEGIES } from '../../underwriting/types.js';

export const OUTCOMES = ['point', 'range', 'tier2_range', 'area_context', 'suppressed'];

/** One batch (or the whole run) of scores as columns: what crosses back from a bulk task (typed arrays, no objects). */
export type ScoreColumns = {
  /** Index into OUTCOMES, 255 when the row failed. */
  outcome: Uint8Array;
  point: Uint8Array;
  error: Uint8Array;
  arv: Float64Array; arvLow: Float64Array; arvHigh: Float64Array; arvConfidence: Float64Array; asIs: Float64Array;
  /** Raw strategy scores per STRATEGIES order; NaN = null (unscored, never 0). */
  raw: Float64Array[];
};

/** Columns for n rows with nothing written: outcome 255, flags 0, every number NaN (null). */
export function emptyColumns(n: number): ScoreColumns {
  const nan = (): Float64Array => new Float64Array(n).fill(NaN);
  return {
    outcome: new Uint8Array(n).fill(255), point: new Uint8Array(n), error: new Uint8Array(n),
    arv: nan(), arvLow: nan(), arvHigh: nan(), arvConfidence: nan(), asIs: nan(), raw: STRATEGIES.map(nan),
  };
}
