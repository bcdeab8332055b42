// The backtest's side of the prior-sale evidence (comps/prior-sale.ts): the weights are fitted on the calibration half
// only (sales before the split day, each valued from earlier sales), then every Tier-1 estimate of the backtest —
// both halves, and the ARV rows of the all-sales report — carries them, so the conformal rows, the display gates,
// the promotion gates and every report line measure the values serving will give.
import { fitPriorSaleWeights, priorSaleFactor, type PriorSaleFit } from '../comps/prior-sale.js';
import type { Backtest, BacktestRecord } from './backtest.js';
import { splitInTime } from './table.js';

/** A record's estimate moved by the fit (the comps value kept as compsValueUsd); unchanged without evidence. */
function adjusted<R extends BacktestRecord>(r: R, fit: PriorSaleFit): R {
  if (r.estimateUsd === null || !r.priorSale) return r;
  const factor = priorSaleFactor(r.priorSale, fit);
  return factor === 1 ? r : { ...r, compsValueUsd: r.estimateUsd, estimateUsd: r.estimateUsd * factor };
}

/** The fit on the calibration half, and the backtest with every Tier-1 estimate carrying it. */
export function withPriorSaleFit(bt: Omit<Backtest, 'priorSale'>): Backtest {
  const { calibration } = splitInTime(bt.records);
  const fit = fitPriorSaleWeights(
    calibration.flatMap((r) => (r.estimateUsd !== null && r.priorSale ? [{ group: r.priorSale.group, logGap: r.priorSale.logGap, logRatio: Math.log(r.priceUsd / r.estimateUsd) }] : [])),
  );
  return {
    ...bt,
    records: bt.records.map((r) => adjusted(r, fit)),
    scored: bt.scored ? bt.scored.map((s) => (s.kind === 'arv' ? adjusted(s, fit) : s)) : null,
    priorSale: fit,
  };
}
