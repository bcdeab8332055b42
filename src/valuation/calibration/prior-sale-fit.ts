// The backtest's side of the prior-sale evidence (comps/prior-sale.ts): the weights are fitted on the calibration half
// only (sales before the split day, each valued from earlier sales), then every estimate of the backtest — both
// halves, the ARV and as-is rows of the all-sales report — carries them, so the conformal rows, the display gates,
// the promotion gates and every report line measure the values serving will give. Tier 1 and the as-is value each
// have their own weights: Tier 1's fitted on the renovated holdout, the as-is value's on every sale's as-is value.
import { fitPriorSaleWeights, priorSaleFactor, type PriorSaleFit } from '../comps/prior-sale.js';
import type { SaleKind, ScoredSale } from './all-sales.js';
import type { Backtest, BacktestRecord } from './backtest.js';
import { splitInTime } from './table.js';

/** A record's estimate moved by the fit (the unmoved value kept as compsValueUsd); unchanged without evidence. */
function adjusted<R extends BacktestRecord>(r: R, fit: PriorSaleFit): R {
  if (r.estimateUsd === null || !r.priorSale) return r;
  const factor = priorSaleFactor(r.priorSale, fit);
  return factor === 1 ? r : { ...r, compsValueUsd: r.estimateUsd, estimateUsd: r.estimateUsd * factor };
}

/** The weights fitted on the records sold before `splitDay`. */
function fitBefore(records: readonly BacktestRecord[], splitDay: number): PriorSaleFit {
  return fitPriorSaleWeights(
    records.flatMap((r) => (r.saleDay < splitDay && r.estimateUsd !== null && r.priorSale ? [{ group: r.priorSale.group, logGap: r.priorSale.logGap, logRatio: Math.log(r.priceUsd / r.estimateUsd) }] : [])),
  );
}

/** What runBacktest valued, before any weight: the holdout, the renovated/new rows of a report run, every as-is value. */
export type UnfittedBacktest = Pick<Backtest, 'records' | 'asIs' | 'startDay' | 'endDay'> & { arvScored: ScoredSale[] };

/**
 * Both fits on the calibration half (the ARV holdout's split day for both), and the backtest with every estimate
 * carrying its own. `kindOf` (a report run): `scored` = the renovated/new rows' ARV and the rest's as-is value.
 */
export function withPriorSaleFit(bt: UnfittedBacktest, kindOf?: (row: number) => SaleKind): Backtest {
  const { splitDay } = splitInTime(bt.records);
  const fit = fitBefore(bt.records, splitDay);
  const fitAsIs = fitBefore(bt.asIs, splitDay);
  const asIs = bt.asIs.map((r) => adjusted(r, fitAsIs));
  return {
    records: bt.records.map((r) => adjusted(r, fit)),
    scored: kindOf ? [...bt.arvScored.map((s) => adjusted(s, fit)), ...asIs.filter((s) => kindOf(s.row) === 'as_is')] : null,
    asIs, startDay: bt.startDay, endDay: bt.endDay,
    priorSale: fit, priorSaleAsIs: fitAsIs,
  };
}
