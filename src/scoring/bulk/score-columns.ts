// Bulk scoring of parcel rows straight into score columns (the unit of work of `avm score-all`): each parcel is
// decided by valuation/bulk.ts decideBulk, underwritten at its labeled as-is value when the ladder says point, and
// written into typed arrays; no per-parcel score record is built. The same numbers as toColumns(scoreSubject(...))
// of the single-valuation path (test/listings/score-columns.test.ts checks it on a sample).
import { AppError } from '../../errors/app-error.js';
import { rawStrategyScore } from '../raw-score.js';
import { underwriteStrategies } from '../../underwriting/underwrite.js';
import { STRATEGIES } from '../../underwriting/types.js';
import { bulkUnderwriteFigures } from '../../valuation/economics/bulk-economics.js';
import { decideBulk } from '../../valuation/bulk.js';
import { displayAsIs, pointUsdOf } from '../../valuation/decide/ladder.js';
import type { Decided, ValueInput } from '../../valuation/value.js';
import type { ValuationContext } from '../../valuation/value-context.js';
import { emptyColumns, OUTCOMES, type ScoreColumns } from './columns.js';
import { isChicagoTract, underwriteInputFrom, WEIGHTS } from '../score-subject.js';

const OUTCOME_CODE = new Map(OUTCOMES.map((o, i) => [o, i]));

/** Raw strategy scores of a point valuation underwritten at its as-is value (null entries: gated or unscored). */
function rawScores(p: Decided, input: ValueInput, ctx: ValuationContext): Array<number | null> {
  const f = bulkUnderwriteFigures(p, input, ctx);
  const strategies = underwriteStrategies(underwriteInputFrom(f, isChicagoTract(ctx, p.r.subject.tract_geoid), f.asIsUsd));
  return STRATEGIES.map((s) => rawStrategyScore(s, strategies[s].economics, strategies[s].unscored_reason, WEIGHTS).raw);
}

/** Writes row k of a decided valuation (score-subject.ts scoreValuation's fields, as toColumns encodes them). */
function writeRow(c: ScoreColumns, k: number, p: Decided, input: ValueInput, ctx: ValuationContext): void {
  const d = p.decision;
  const point = pointUsdOf(d) !== null;
  // Economics run before any write: a row whose underwriting throws is an error row with every number null.
  const raws = point ? rawScores(p, input, ctx) : null;
  c.outcome[k] = OUTCOME_CODE.get(d.outcome) ?? 255;
  c.point[k] = point ? 1 : 0;
  c.arv[k] = point ? (d.arv.value as number) : NaN;
  c.arvLow[k] = d.arv.low ?? NaN;
  c.arvHigh[k] = d.arv.high ?? NaN;
  c.arvConfidence[k] = d.arv.confidence_p10 ?? d.arv.confidence ?? NaN;
  c.asIs[k] = p.asIs.asIs ? (displayAsIs(p.asIs.asIs).value ?? NaN) : NaN;
  if (raws) for (let j = 0; j < raws.length; j++) c.raw[j][k] = raws[j] ?? NaN;
}

/**
 * Scores parcel-table rows at their labeled as-is value into columns, in row order, every row valued as of `asOf` (the
 * job's date); a failed row has error = 1.
 */
export function scoreParcelColumns(rows: Int32Array, ctx: ValuationContext, asOf: string): ScoreColumns {
  const c = emptyColumns(rows.length);
  const inputs: ValueInput[] = Array.from(rows, (parcelRow) => ({ parcelRow, asOf }));
  decideBulk(inputs, ctx, (k, d) => {
    if (d instanceof AppError) return void (c.error[k] = 1);
    try {
      writeRow(c, k, d, inputs[k], ctx);
    } catch {
      c.error[k] = 1;
    }
  });
  return c;
}
