// Out-of-time backtest of hedonic_v1: fit on sales before the cutoff, value each arms-length sale in the following
// horizon with its own facts and condition, report per segment MdAPE, PPE10 and the 80% interval's coverage.
import type { Table } from 'apache-arrow';
import { HEDONIC } from '../../registry/groups/hedonic.js';
import { intervalCoverage, mdape, meanRelativeWidth, ppe } from '../calibration/metrics.js';
import { fitHedonic, segmentRows } from './fit.js';
import { hedonicInterval, linearPart, quarterFor, resolveLocation } from './predict.js';
import { armsLengthMask, salesColumnsFromArrow, type SalesColumns } from '../../store/sales-columns.js';
import type { HedonicModel, TractMeta } from './types.js';

export type HedonicBacktestRow = {
  segment: string; n_test: number; n_unresolved: number; mdape: number | null; ppe10: number | null;
  coverage80: number | null; mean_width: number | null; display_eligible: boolean;
};
export type HedonicBacktest = { model_version: string; cutoff: string; horizon_days: number; segments: HedonicBacktestRow[]; overall: Omit<HedonicBacktestRow, 'segment' | 'display_eligible'> };

type Acc = { est: number[]; price: number[]; lo: number[]; hi: number[]; unresolved: number };

function summarize(a: Acc): Omit<HedonicBacktestRow, 'segment' | 'display_eligible'> {
  const n = a.est.length;
  return {
    n_test: n, n_unresolved: a.unresolved,
    mdape: n ? mdape(a.est, a.price) : null, ppe10: n ? ppe(a.est, a.price) : null,
    coverage80: n ? intervalCoverage(a.lo, a.hi, a.price) : null, mean_width: n ? meanRelativeWidth(a.lo, a.hi, a.est) : null,
  };
}

/** Fits before `cutoffDay` (or uses `model` when given) and scores sales in [cutoffDay, cutoffDay + horizonDays). */
export function backtestHedonic(args: { sales: Table | SalesColumns; tractMeta: readonly TractMeta[]; cutoffDay: number; horizonDays?: number; model?: HedonicModel }): HedonicBacktest {
  const c = 'numRows' in args.sales ? salesColumnsFromArrow(args.sales) : args.sales;
  const horizon = args.horizonDays ?? HEDONIC.v.backtest_horizon_days;
  const model = args.model ?? fitHedonic(c, args.tractMeta, { cutoffDay: args.cutoffDay });
  const meta = new Map(args.tractMeta.map((t) => [t.geoid, t]));
  const test = segmentRows(c, meta, args.cutoffDay, args.cutoffDay + horizon, armsLengthMask(c));
  const rows: HedonicBacktestRow[] = [];
  const total: Acc = { est: [], price: [], lo: [], hi: [], unresolved: 0 };
  for (const [seg, r] of [...test.entries()].sort()) {
    const fit = model.segments[seg];
    if (!fit) continue;
    const a: Acc = { est: [], price: [], lo: [], hi: [], unresolved: 0 };
    r.y.forEach((y, i) => {
      const m = meta.get(r.tract[i]);
      const loc = resolveLocation(fit, r.tract[i], m?.lat ?? NaN, m?.lon ?? NaN);
      if (!loc) { a.unresolved++; return; }
      const v = Math.exp(loc.effect + linearPart(fit, r.cov[i]) + fit.quarters[quarterFor(fit, args.cutoffDay + horizon)]);
      const band = hedonicInterval(fit, v);
      a.est.push(v); a.price.push(Math.exp(y)); a.lo.push(band.low); a.hi.push(band.high);
    });
    rows.push({ segment: seg, ...summarize(a), display_eligible: fit.displayEligible });
    for (const k of ['est', 'price', 'lo', 'hi'] as const) for (const v of a[k]) total[k].push(v);
    total.unresolved += a.unresolved;
  }
  return { model_version: model.version, cutoff: model.cutoff, horizon_days: horizon, segments: rows, overall: summarize(total) };
}
