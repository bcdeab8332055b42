// How much of a corpus' price spread nearby comparable sales can see (issue 14), beside the one real figure we have
// for it: the naive comps estimator (src/valuation/calibration/naive-comps.ts: the 8 nearest sales within a mile,
// ±20% living area, ±1 bedroom, median $/sqft × living area) erred by a median 10.8-11.7% on real single-family
// Chicago sales of all conditions (issue 14, "For scale"). Here the same estimator values the corpus' arms-length
// single-family Chicago sales of the last two years three ways: as a user would (comps' sale prices against the
// subject's price); with every comp at its true value (no sale noise: against the subject's price and true value);
// and with every comp and the subject at their true value in renovated condition (no noise, no condition: what is
// left is location, size and the unobserved quality no characteristic carries). Reads the ground truth: a bench
// figure, nothing reaches serving.
import { armsLengthMask, type SalesColumns } from '../src/store/sales-columns.js';
import { PTYPE_CODE } from '../src/store/columns.js';
import { median } from '../src/reference/stats.js';
import { naiveCompsEstimator } from '../src/valuation/calibration/naive-comps.js';
import { backtestWindow } from '../src/valuation/calibration/backtest.js';
import { readTruthByRow } from '../src/valuation/calibration/oracle.js';
import { isCityMuni } from '../src/valuation/decide/segment.js';

/** The naive estimator's MdAPE on real single-family Chicago sales (issue 14's measurement, "For scale"). */
export const REAL_NAIVE_MDAPE_CHICAGO_SFH: readonly [number, number] = [0.108, 0.117];
const WINDOW_DAYS = 730;

export type CompsVisibility = {
  subjects: number;
  /** Valued by the naive estimator from the comps' sale prices (what the real figure measures). */
  naive_vs_price_mdape: number | null;
  real_naive_mdape: readonly [number, number];
  /** naive_vs_price_mdape over the real range's upper end (above 1: the corpus is harder for comps than real sales). */
  over_real_high: number | null;
  /** Comps at their true value (no sale noise), against the subject's price. */
  true_comps_vs_price_mdape: number | null;
  /** Comps and subject at their true value in renovated condition: location, size and unobserved quality alone. */
  structural_mdape: number | null;
};

const r4 = (x: number | null): number | null => (x === null ? null : +x.toFixed(4));

/** The figures of one ingested corpus (`sales` its snapshot, `muniOf` a tract's municipality); null without truth. */
export async function compsVisibility(dataDir: string, sales: SalesColumns, muniOf: (geoid: string) => string | null): Promise<CompsVisibility | null> {
  const byRow = await readTruthByRow(dataDir, sales);
  if (byRow === null) return null;
  const arms = armsLengthMask(sales);
  const { startDay } = backtestWindow(sales, WINDOW_DAYS);
  const subjects: number[] = [];
  for (let i = 0; i < sales.length; i++) {
    if (arms[i] !== 1 || sales.ptype[i] !== PTYPE_CODE.sfh || sales.saleDay[i] < startDay || !byRow[i]) continue;
    const tract = sales.tractIdx[i] < sales.tracts.length ? sales.tracts[sales.tractIdx[i]] : null;
    if (tract !== null && isCityMuni(muniOf(tract))) subjects.push(i);
  }
  const trueArv = (i: number): number => {
    const t = byRow[i];
    return t && Number.isFinite(t.trueArv) ? t.trueArv : t?.trueValue ?? sales.priceUsd[i];
  };
  const withPrices = (price: Float64Array) => naiveCompsEstimator({ ...sales, priceUsd: price }, arms);
  const mdapeOf = (estimate: (row: number) => number | null, target: (row: number) => number): number | null => {
    const ape: number[] = [];
    for (const i of subjects) {
      const e = estimate(i);
      if (e !== null && e > 0) ape.push(Math.abs(e / target(i) - 1));
    }
    return ape.length ? median(ape) : null;
  };
  const price = (i: number): number => sales.priceUsd[i];
  const naive = withPrices(sales.priceUsd);
  const trueComps = withPrices(Float64Array.from({ length: sales.length }, (_, i) => byRow[i]?.trueValue ?? sales.priceUsd[i]));
  const renovatedComps = withPrices(Float64Array.from({ length: sales.length }, (_, i) => trueArv(i)));
  const naiveMdape = mdapeOf(naive.estimate, price);
  return {
    subjects: subjects.length,
    naive_vs_price_mdape: r4(naiveMdape),
    real_naive_mdape: REAL_NAIVE_MDAPE_CHICAGO_SFH,
    over_real_high: naiveMdape === null ? null : r4(naiveMdape / REAL_NAIVE_MDAPE_CHICAGO_SFH[1]),
    true_comps_vs_price_mdape: r4(mdapeOf(trueComps.estimate, price)),
    structural_mdape: r4(mdapeOf(renovatedComps.estimate, trueArv)),
  };
}
