// The all-sales side of the backtest (issue 14 item 3): every arms-length, non-condo Cook or Lake sale of the window is
// scored against the value that applies to it — ARV (Tier 1, same code and ladder as serving) for a renovated/new sale,
// the as-is value (dated/distressed strata, as-is.ts) for the rest. Which kind a sale is comes from `kindOf`: the true
// condition where the corpus has ground truth, else the snapshot's `condition` column (inferred on real data). Same
// out-of-time discipline as the ARV holdout: valued as of its sale day from strictly earlier sales, with the month's
// time index. The calibration table is still built from the ARV holdout alone (serving's intervals are ARV intervals).
import { encodeSubjects } from '../../kernel/decode.js';
import { STRATUM } from '../../kernel/params.js';
import { CONDITION_CODE, PTYPE_CODE } from '../../store/columns.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import { valueAsIsPacked } from '../comps/as-is.js';
import { findPriorSale } from '../comps/prior-sale.js';
import { kernelSubject, type Tier1Deps, type Tier1Subject } from '../comps/tier1.js';
import type { BacktestRecord } from './backtest.js';

export type SaleKind = 'arv' | 'as_is';
export const SALE_KINDS: readonly SaleKind[] = ['arv', 'as_is'];

/** One scored sale: the BacktestRecord of the value that applies to it (ladder fields are Tier 1's; null for as-is). */
export type ScoredSale = BacktestRecord & { kind: SaleKind };

/** Kind of a condition code: renovated and new sales are what ARV predicts; distressed, dated and unknown take as-is. */
export function kindOfCondition(code: number): SaleKind {
  return code === CONDITION_CODE.renovated || code === CONDITION_CODE.new ? 'arv' : 'as_is';
}

/** Scored rows: arms-length, non-condo, Cook or Lake, sold in [startDay, endDay), any condition. */
export function scoredRows(c: SalesColumns, arms: Uint8Array, startDay: number, endDay: number): number[] {
  const rows: number[] = [];
  for (let i = 0; i < c.length; i++) {
    if (arms[i] !== 1 || c.saleDay[i] < startDay || c.saleDay[i] >= endDay) continue;
    if (c.ptype[i] === PTYPE_CODE.condo || (c.county[i] !== 1 && c.county[i] !== 2)) continue;
    rows.push(i);
  }
  return rows;
}

/** The subject a backtest values for sale `row`: its own facts, as of its sale day, its own parcel excluded. */
export function subjectOfSale(c: SalesColumns, row: number): Tier1Subject {
  return {
    lat: c.lat[row], lon: c.lon[row], sqft: c.sqft[row] > 0 ? c.sqft[row] : null, beds: c.beds[row] >= 0 ? c.beds[row] : null,
    ptype: c.ptype[row], county: c.county[row], asOfDay: c.saleDay[row], excludeParcelIdx: c.parcelIdx[row],
    units: c.units[row] > 0 ? c.units[row] : null,
  };
}

/**
 * As-is records of one month's sales through the serving as-is steps (one kernel batch per step and stratum), each
 * with its own earlier sale against the as-is median (the weights are fitted and applied afterwards, as for Tier 1:
 * prior-sale-fit.ts). Nobody states a sold house's condition: serving would read its parcel record, an estimate from
 * sale prices that the as-is strata do not select by (subject/subject.ts statedCondition), so the subject is of
 * unknown condition. Never the true one (truth only picks the kind) nor the sale's own estimate (made partly from the
 * price being predicted).
 */
export function valueAsIsMonth(deps: Tier1Deps, c: SalesColumns, rows: readonly number[], segmentOf: (row: number) => string): ScoredSale[] {
  if (rows.length === 0) return [];
  const packed = encodeSubjects(rows.map((r) => ({ ...kernelSubject(subjectOfSale(c, r)), stratumMask: STRATUM.asIs })));
  const results = valueAsIsPacked(deps.kernel, packed, rows.map(() => CONDITION_CODE.unknown));
  return rows.map((row, k) => {
    const res = results[k];
    if (res instanceof Error) throw res;
    const ev = res.asIs ? findPriorSale(deps, subjectOfSale(c, row), res.asIs.value) : null;
    return {
      row, saleDay: c.saleDay[row], priceUsd: c.priceUsd[row], segment: segmentOf(row), kind: 'as_is' as const,
      estimateUsd: res.asIs?.value ?? null, nComps: res.asIs?.n_comps ?? 0, ladderStep: null, fsdPct: null,
      reason: res.asIs ? null : (res.warnings[0] ?? 'as_is_thin_evidence'),
      priorSale: ev ? { group: ev.group, logGap: ev.logGap } : null,
    };
  });
}
