// Out-of-time backtest: every arms-length, non-condo, renovated sale of the last tier1.holdout_days (~24 months) is
// valued as of its sale day using only earlier sales — the kernel's strict sale_day < asOfDay for comps, and a time
// index re-estimated each holdout month from sales before that month's first day. The sale's own price never enters
// its valuation. With `kindOf`, every arms-length sale of the window is scored too (all-sales.ts).
import type { PriorSaleEvidence, PriorSaleFit } from '../comps/prior-sale.js';
import { withPriorSaleFit } from './prior-sale-fit.js';
import { createKernel } from '../../kernel/index.js';
import type { KernelColumns } from '../../kernel/types.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { CONDITION_CODE, PTYPE_CODE } from '../../store/columns.js';
import { buildParcelSalesIndex } from '../comps/flip-pairs.js';
import { armsLengthMask, type SalesColumns } from '../../store/sales-columns.js';
import { decideValuationDisplay } from '../decide/ladder.js';
import { segmentKey, type SegmentPtype } from '../decide/segment.js';
import { buildTimeIndex } from '../comps/time-index.js';
import { firstDayOfMonth, monthOfDay } from '../../store/days.js';
import { computeTier1, type Tier1Deps } from '../comps/tier1.js';
import { estimateUnitsPremium } from '../comps/units-stratum.js';
import { kernelColumnsOf } from '../comps/kernel-columns.js';
import { scoredRows, subjectOfSale, valueAsIsMonth, type SaleKind, type ScoredSale } from './all-sales.js';

export type BacktestRecord = {
  row: number;
  saleDay: number;
  priceUsd: number;
  segment: string;
  /** Unrounded Tier-1 value, or null when Tier 1 did not serve (suppressed / fewer than 3 comps). */
  estimateUsd: number | null;
  nComps: number;
  /** Comp-policy ladder step (1..3) and robust dispersion in percent: the evidence-class keys (calibration/classes.ts). */
  ladderStep: 1 | 2 | 3 | null;
  fsdPct: number | null;
  /** Suppression reason when not valued. */
  reason: string | null;
  /** The sale's own earlier sale against the comps value (comps/prior-sale.ts); null without one. */
  priorSale?: Pick<PriorSaleEvidence, 'group' | 'logGap'> | null;
  /** The comps value before the prior-sale weights moved estimateUsd (prior-sale-fit.ts); absent when unmoved. */
  compsValueUsd?: number;
};

/**
 * `scored`: every arms-length sale of the window against the value that applies to it (only when `kindOf` is given).
 * `asIs`: every such sale's as-is value, whatever its kind (the as-is weights are fitted on its calibration half).
 */
export type Backtest = {
  records: BacktestRecord[]; scored: ScoredSale[] | null; asIs: ScoredSale[]; startDay: number; endDay: number;
  /** Fitted on the calibration half; every Tier-1 estimate carries it. */
  priorSale: PriorSaleFit;
  /** The as-is value's weights, fitted on the calibration half of `asIs`; every as-is estimate carries them. */
  priorSaleAsIs: PriorSaleFit;
};

const PTYPE_NAME: Record<number, SegmentPtype> = { [PTYPE_CODE.sfh]: 'sfh', [PTYPE_CODE.mf2_4]: 'mf2_4', [PTYPE_CODE.condo]: 'condo' };

/**
 * Holdout rows: arms-length, non-condo, renovated, Cook or Lake, sold in [startDay, endDay). ARV is the value in
 * renovated condition, so a renovated sale's price is what it predicts; new-construction sales carry a new-build
 * premium ARV does not claim (they stay in the comp pool, as comp policy says, but are not scored here).
 */
export function holdoutRows(c: SalesColumns, arms: Uint8Array, startDay: number, endDay: number): number[] {
  const rows: number[] = [];
  for (let i = 0; i < c.length; i++) {
    if (arms[i] !== 1 || c.saleDay[i] < startDay || c.saleDay[i] >= endDay) continue;
    if (c.ptype[i] === PTYPE_CODE.condo || (c.county[i] !== 1 && c.county[i] !== 2)) continue;
    if (c.condition[i] !== CONDITION_CODE.renovated) continue;
    rows.push(i);
  }
  return rows.sort((a, b) => c.saleDay[a] - c.saleDay[b] || a - b);
}

/** The Tier-1 estimate of one holdout sale through the same code and ladder as serving (no calibration row). */
function valueOne(deps: Tier1Deps, c: SalesColumns, row: number, segment: string): BacktestRecord {
  const t1 = computeTier1(deps, subjectOfSale(c, row), { withCeiling: false });
  const decision = decideValuationDisplay({
    subject: { county: c.county[row] === 2 ? 'lake' : 'cook', outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false },
    tier1: { ...t1.evidence, calibration: null },
    tier2: null,
    areaContext: null,
  });
  return {
    row, saleDay: c.saleDay[row], priceUsd: c.priceUsd[row], segment,
    estimateUsd: decision.artifactArv?.value ?? null, nComps: t1.evidence.nComps,
    ladderStep: t1.evidence.ladderStep, fsdPct: t1.evidence.fsdPct, reason: decision.arvNullReason,
    priorSale: t1.evidence.priorSale ? { group: t1.evidence.priorSale.group, logGap: t1.evidence.priorSale.logGap } : null,
  };
}

/**
 * `holdoutDays`: the window (default tier1.holdout_days; Infinity = every sale of the snapshot). `kindOf`: a sale row's
 * kind (arv / as_is); when given, every arms-length sale of the window is also scored (all-sales.ts).
 */
export type BacktestOptions = { holdoutDays?: number; onMonth?: (month: string, n: number) => void; columns?: KernelColumns; kindOf?: (row: number) => SaleKind;
  /** Municipality of a sale row in place of its tract's (a tract-less snapshot locates the city by township). */
  muniOfRow?: (row: number) => string | null };

/** The backtest window: the last `holdoutDays` (default tier1.holdout_days) up to the day after the latest sale. */
export function backtestWindow(sales: SalesColumns, holdoutDays: number = TIER1.v.holdout_days): { startDay: number; endDay: number } {
  let maxDay = -Infinity;
  for (let i = 0; i < sales.length; i++) if (sales.saleDay[i] > maxDay) maxDay = sales.saleDay[i];
  return { startDay: maxDay + 1 - holdoutDays, endDay: maxDay + 1 };
}

/** Runs the backtest over `sales` (muniOf: GEOID → municipality, for the city/suburb segment). */
export function runBacktest(sales: SalesColumns, muniOf: (geoid: string) => string | null, opts: BacktestOptions = {}): Backtest {
  const { startDay, endDay } = backtestWindow(sales, opts.holdoutDays);
  const arms = armsLengthMask(sales);
  const columns = opts.columns ?? kernelColumnsOf(sales);
  const parcelSales = buildParcelSalesIndex(sales, arms);
  const segmentOf = (row: number): string => {
    if (opts.muniOfRow) return segmentKey(PTYPE_NAME[sales.ptype[row]], opts.muniOfRow(row));
    const geoid = sales.tractIdx[row] < sales.tracts.length ? sales.tracts[sales.tractIdx[row]] : null;
    return segmentKey(PTYPE_NAME[sales.ptype[row]], geoid ? muniOf(geoid) : null);
  };
  const holdout = new Set(holdoutRows(sales, arms, startDay, endDay));
  const kindOf = opts.kindOf;
  // Every scored row gets an as-is value (the as-is weights are fitted on them all); only a report run (kindOf) also
  // values its renovated/new rows by Tier 1 beside the holdout.
  const scoredSet = new Set(scoredRows(sales, arms, startDay, endDay));
  const byMonth = new Map<number, number[]>();
  for (const r of new Set([...holdout, ...scoredSet])) {
    const m = monthOfDay(sales.saleDay[r]);
    let list = byMonth.get(m);
    if (!list) byMonth.set(m, (list = []));
    list.push(r);
  }
  const records: BacktestRecord[] = [];
  const arvScored: ScoredSale[] = [];
  const asIs: ScoredSale[] = [];
  for (const [month, unsorted] of [...byMonth].sort((a, b) => a[0] - b[0])) {
    const rows = unsorted.sort((a, b) => sales.saleDay[a] - sales.saleDay[b] || a - b);
    // Time index and unit-count premium re-estimated from sales before the month's first day, as serving would have.
    const ti = buildTimeIndex(sales, firstDayOfMonth(month), arms);
    const unitsPremium = estimateUnitsPremium(sales, firstDayOfMonth(month), arms);
    const deps: Tier1Deps = { kernel: createKernel(columns, ti.series), sales, parcelSales, unitsPremium, timeIndex: ti };
    const asIsRows: number[] = [];
    for (const row of rows) {
      const kind = kindOf?.(row) ?? null;
      if (scoredSet.has(row)) asIsRows.push(row);
      if (!holdout.has(row) && kind !== 'arv') continue;
      const rec = valueOne(deps, sales, row, segmentOf(row));
      if (holdout.has(row)) records.push(rec);
      if (kind === 'arv') arvScored.push({ ...rec, kind });
    }
    asIs.push(...valueAsIsMonth(deps, sales, asIsRows, segmentOf));
    opts.onMonth?.(`${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`, rows.length);
  }
  return withPriorSaleFit({ records, arvScored, asIs, startDay, endDay }, kindOf);
}
