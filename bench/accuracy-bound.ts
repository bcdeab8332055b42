// The "perfect comps" bound of the accuracy bench (issue 14): how close to the oracle ANY comparable-sales estimator
// can come in the synthetic world. The Tier-1 serving code (kernel query + tier1EvidenceOf: ladder, bands, trim, adjustments, the
// distance-weighted median) values the truly renovated arms-length non-condo sales of the last year twice:
// - `model`: as served — comps' sale prices, the inferred condition strata;
// - `perfect_comps`: every comp's price replaced by its TRUE value in renovated condition (no sale noise) and the
//   strata by the TRUE condition (no classification error) — what an estimator would do if it knew every other
//   house exactly but not the subject's own unobserved quality.
// Both against the subject's sale price and its true value, beside the oracle (true value vs price) on the same sales,
// with the IAAO ratio statistics (COD, PRD, PRB of estimate / price) of each line.
// Simplification: one time index, estimated from the sales before the window (the backtest re-estimates it monthly).
// Ground truth is read here only, for a bench figure; nothing reaches serving.
import { createKernel, type KernelColumns } from '../src/kernel/index.js';
import { STRATUM } from '../src/kernel/params.js';
import { CONDITION_CODE, PTYPE_CODE } from '../src/store/columns.js';
import { armsLengthMask, type SalesColumns } from '../src/store/sales-columns.js';
import { buildParcelSalesIndex } from '../src/valuation/comps/flip-pairs.js';
import { kernelColumnsOf } from '../src/valuation/comps/kernel-columns.js';
import { buildTimeIndex } from '../src/valuation/comps/time-index.js';
import { kernelSubject, tier1EvidenceOf, type Tier1Deps } from '../src/valuation/comps/tier1.js';
import { subjectOfSale } from '../src/valuation/calibration/all-sales.js';
import { readTruthByRow } from '../src/valuation/calibration/oracle.js';
import { backtestWindow } from '../src/valuation/calibration/backtest.js';
import { median } from '../src/reference/stats.js';
import { cod, prb, prd } from '../src/valuation/calibration/metrics.js';

const WINDOW_DAYS = 365;

export type BoundLine = { n: number; vs_price_mdape: number | null; vs_true_mdape: number | null; cod: number | null; prd: number | null; prb: number | null };
export type AccuracyBound = {
  window_days: number;
  n_sales: number;
  oracle: BoundLine;
  model: BoundLine;
  perfect_comps: BoundLine;
  perfect_comps_over_oracle: number | null;
  model_over_perfect_comps: number | null;
};

const r4 = (x: number | null): number | null => (x === null ? null : +x.toFixed(4));

function line(pairs: Array<{ est: number; price: number; truth: number }>): BoundLine {
  const ape = (f: (p: { est: number; price: number; truth: number }) => number): number | null => (pairs.length ? median(pairs.map(f)) : null);
  const est = pairs.map((p) => p.est), price = pairs.map((p) => p.price);
  const ratio = (f: (e: number[], p: number[]) => number): number | null => (pairs.length ? r4(f(est, price)) : null);
  return {
    n: pairs.length, vs_price_mdape: r4(ape((p) => Math.abs(p.est / p.price - 1))), vs_true_mdape: r4(ape((p) => Math.abs(p.est / p.truth - 1))),
    cod: ratio(cod), prd: ratio(prd), prb: pairs.length ? r4(prb(est, price)) : null,
  };
}

/** The bound on one calibrated corpus; null when it has no truth file. */
export async function accuracyBound(dataDir: string, sales: SalesColumns): Promise<AccuracyBound | null> {
  const byRow = await readTruthByRow(dataDir, sales);
  if (byRow === null) return null;
  const arms = armsLengthMask(sales);
  const start = backtestWindow(sales, WINDOW_DAYS).startDay;
  const series = buildTimeIndex(sales, start, arms).series;
  const columns = kernelColumnsOf(sales);
  const truePrice = Float64Array.from({ length: sales.length }, (_, i) => {
    const t = byRow[i];
    return t && Number.isFinite(t.trueArv) ? t.trueArv : sales.priceUsd[i];
  });
  const trueCondition = Uint8Array.from({ length: sales.length }, (_, i) => byRow[i]?.condition ?? sales.condition[i]);
  const perfectColumns: KernelColumns = { ...columns, priceUsd: truePrice, condition: trueCondition };
  const parcelSales = buildParcelSalesIndex(sales);
  const served: Tier1Deps = { kernel: createKernel(columns, series), sales, parcelSales };
  const perfect: Tier1Deps = { kernel: createKernel(perfectColumns, series), sales, parcelSales };
  const rows: number[] = [];
  for (let i = 0; i < sales.length; i++) {
    const t = byRow[i];
    if (arms[i] !== 1 || sales.saleDay[i] < start || sales.ptype[i] === PTYPE_CODE.condo || !t || t.condition !== CONDITION_CODE.renovated) continue;
    rows.push(i);
  }
  const model: Array<{ est: number; price: number; truth: number }> = [];
  const best: typeof model = [];
  const oracle: typeof model = [];
  for (const r of rows) {
    const t = byRow[r]!;
    const subject = subjectOfSale(sales, r);
    // The serving code's evidence from the kernel's answer (tier1EvidenceOf), without the comps' display records
    // (those read the snapshot's inferred condition, which the perfect strata do not use).
    const valueOf = (deps: Tier1Deps): number | null => tier1EvidenceOf(deps, subject, deps.kernel.queryComps({ ...kernelSubject(subject), stratumMask: STRATUM.arv })).evidence.valueUsd;
    const a = valueOf(served);
    const b = valueOf(perfect);
    if (a === null || b === null) continue; // both must value the sale: the same sales in every line
    const price = sales.priceUsd[r];
    model.push({ est: a, price, truth: t.trueValue });
    best.push({ est: b, price, truth: t.trueValue });
    oracle.push({ est: t.trueValue, price, truth: t.trueValue });
  }
  const o = line(oracle), m = line(model), p = line(best);
  const ratio = (a: number | null, b: number | null): number | null => (a !== null && b ? r4(a / b) : null);
  return {
    window_days: WINDOW_DAYS, n_sales: rows.length, oracle: o, model: m, perfect_comps: p,
    perfect_comps_over_oracle: ratio(p.vs_price_mdape, o.vs_price_mdape),
    model_over_perfect_comps: ratio(m.vs_price_mdape, p.vs_price_mdape),
  };
}
