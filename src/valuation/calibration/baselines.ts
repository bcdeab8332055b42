// The baselines beside the model in the all-sales report: the naive comps estimator (naive-comps.ts) and the oracle
// (the generator's true value, synthetic corpora only), each on the same scored sales and groups as the model's rows.
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';
import type { ScoredSale } from './all-sales.js';
import { ALL_SEGMENTS, type AccuracyKind } from './accuracy.js';
import { mdape, ppe, ppe20, ratioStudy } from './metrics.js';

/**
 * The report's `baselines` interface (issue 14): name, group, n, mdape, cod, ppe10. Added here: `kind` (arv / as_is /
 * overall: group is a segment key or `all` within it), `refused` (sales of the group it gave no value) and `ppe20`.
 * n counts the sales it valued; the error figures are over those.
 */
export type BaselineRow = {
  name: 'naive' | 'oracle'; group: string; n: number; mdape: number | null; cod: number | null; ppe10: number | null;
  kind: AccuracyKind; refused: number; ppe20: number | null;
};

/** A baseline's value of a scored sale, or null when it gives none. */
export type BaselineOf = (s: ScoredSale) => number | null;

function baselineRow(name: BaselineRow['name'], kind: AccuracyKind, group: string, sales: readonly ScoredSale[], valueOf: BaselineOf): BaselineRow {
  const est: number[] = [];
  const price: number[] = [];
  for (const s of sales) {
    const v = valueOf(s);
    if (v === null || !(v > 0)) continue;
    est.push(v);
    price.push(s.priceUsd);
  }
  const n = est.length;
  return {
    name, kind, group, n, refused: sales.length - n,
    mdape: n ? mdape(est, price) : null, cod: n >= 2 ? ratioStudy(est, price).cod : null,
    ppe10: n ? ppe(est, price, VALUATION_DISPLAY.v.ppe_band_frac) : null, ppe20: n ? ppe20(est, price) : null,
  };
}

/** One baseline's rows over the same (kind, segment) groups as accuracyRows. */
export function baselineRows(name: BaselineRow['name'], scored: readonly ScoredSale[], valueOf: BaselineOf): BaselineRow[] {
  const rows: BaselineRow[] = [];
  for (const kind of ['arv', 'as_is', 'overall'] as const) {
    const ofKind = kind === 'overall' ? scored : scored.filter((s) => s.kind === kind);
    for (const seg of [...new Set(ofKind.map((s) => s.segment))].sort()) rows.push(baselineRow(name, kind, seg, ofKind.filter((s) => s.segment === seg), valueOf));
    rows.push(baselineRow(name, kind, ALL_SEGMENTS, ofKind, valueOf));
  }
  return rows;
}
