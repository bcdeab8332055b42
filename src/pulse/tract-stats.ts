// One pass over a snapshot's arms-length sales and parcels, collecting per-tract evidence: windowed prices by
// condition stratum and per unit, prices by calendar year (reassessment shock), the modal parcel ZIP and condition.
import type { Table } from 'apache-arrow';
import { CONDITION_CODE, PARCEL_COLUMNS as P, PTYPE_CODE, TRACT_NONE } from '../store/columns.js';
import { PULSE } from '../registry/groups/pulse.js';
import { TAX } from '../registry/groups/tax.js';
import { armsLengthMask, type SalesColumns } from '../store/sales-columns.js';
import { isoOfDay } from '../store/days.js';
import { median } from '../reference/stats.js';
import { servingCutoffDay } from '../valuation/value-context.js';

export type TractEvidence = {
  /** Arms-length sale prices in the signal window. */
  all: number[];
  /** Renovated or new condition (the after-repair stratum). */
  reno: number[];
  /** Distressed or dated condition (the buy stratum of a flip or BRRRR). */
  buy: number[];
  /** Price per unit, all sales with a known unit count; and of distressed/dated sales; and of 2-4 unit sales. */
  perUnit: number[];
  buyPerUnit: number[];
  mfPerUnit: number[];
  /** Prices in the recent window (reassessment shock, numerator). */
  recent: number[];
  /** Prices by calendar year (reassessment shock, denominator). */
  byYear: Map<number, number[]>;
  zipCounts: Map<string, number>;
  conditionCounts: Map<number, number>;
};

export type CorpusStats = { byGeoid: Map<string, TractEvidence>; cutoffDay: number; salesThrough: string };

const empty = (): TractEvidence => ({ all: [], reno: [], buy: [], perUnit: [], buyPerUnit: [], mfPerUnit: [], recent: [], byYear: new Map(), zipCounts: new Map(), conditionCounts: new Map() });

function evidenceOf(m: Map<string, TractEvidence>, geoid: string): TractEvidence {
  let e = m.get(geoid);
  if (!e) {
    e = empty();
    m.set(geoid, e);
  }
  return e;
}

function addSales(m: Map<string, TractEvidence>, s: SalesColumns, cutoffDay: number): void {
  const arms = armsLengthMask(s);
  const fromDay = cutoffDay - PULSE.v.signal_window_days;
  const recentFrom = cutoffDay - PULSE.v.recent_window_days;
  // yearly medians back to the earliest possible last reassessment year: the longest cycle (Lake's 4) before the cutoff
  const oldestYear = new Date(cutoffDay * 86_400_000).getUTCFullYear() - Math.max(TAX.v.reassess_cycle_years, TAX.v.lake_cycle_years);
  for (let i = 0; i < s.length; i++) {
    if (!arms[i] || s.tractIdx[i] === TRACT_NONE || s.tractIdx[i] >= s.tracts.length) continue;
    const day = s.saleDay[i];
    const year = new Date(day * 86_400_000).getUTCFullYear();
    if (day >= cutoffDay || year < oldestYear) continue;
    const e = evidenceOf(m, s.tracts[s.tractIdx[i]]);
    const price = s.priceUsd[i];
    const ys = e.byYear.get(year);
    if (ys) ys.push(price);
    else e.byYear.set(year, [price]);
    if (day >= recentFrom) e.recent.push(price);
    if (day < fromDay) continue;
    const cond = s.condition[i];
    const units = s.units[i];
    e.all.push(price);
    if (cond === CONDITION_CODE.renovated || cond === CONDITION_CODE.new) e.reno.push(price);
    const isBuy = cond === CONDITION_CODE.distressed || cond === CONDITION_CODE.dated;
    if (isBuy) e.buy.push(price);
    if (units > 0) {
      e.perUnit.push(price / units);
      if (isBuy) e.buyPerUnit.push(price / units);
      if (s.ptype[i] === PTYPE_CODE.mf2_4) e.mfPerUnit.push(price / units);
    }
  }
}

function addParcels(m: Map<string, TractEvidence>, parcels: Table, tracts: readonly string[]): void {
  const tractIdx = parcels.getChild(P.tractIdx)?.toArray() as Uint16Array | undefined;
  const zip = parcels.getChild(P.zip);
  const cond = parcels.getChild(P.condition)?.toArray() as Uint8Array | undefined;
  if (!tractIdx || !zip || !cond) return;
  for (let i = 0; i < parcels.numRows; i++) {
    const t = tractIdx[i];
    if (t === TRACT_NONE || t >= tracts.length) continue;
    const e = evidenceOf(m, tracts[t]);
    const z = String(zip.get(i) ?? '');
    if (z !== '') e.zipCounts.set(z, (e.zipCounts.get(z) ?? 0) + 1);
    if (cond[i] !== CONDITION_CODE.unknown) e.conditionCounts.set(cond[i], (e.conditionCounts.get(cond[i]) ?? 0) + 1);
  }
}

export function collectCorpusStats(sales: SalesColumns, parcels: Table | null, parcelTracts: readonly string[]): CorpusStats {
  const cutoffDay = servingCutoffDay(sales);
  const byGeoid = new Map<string, TractEvidence>();
  addSales(byGeoid, sales, cutoffDay);
  if (parcels) addParcels(byGeoid, parcels, parcelTracts);
  return { byGeoid, cutoffDay, salesThrough: isoOfDay(cutoffDay - 1) };
}

/** The median (reference/stats.ts) of a tract's evidence, or null with fewer than minN values (the pulse minimums). */
export function medianOrNull(xs: readonly number[], minN = 1): number | null {
  return xs.length < Math.max(1, minN) ? null : median(xs);
}

/** The key with the highest count (ties: smallest key), or null for an empty map. */
export function modeOf<K extends string | number>(m: Map<K, number>): K | null {
  let best: K | null = null;
  let bestN = -1;
  for (const [k, n] of m) if (n > bestN || (n === bestN && best !== null && k < best)) [best, bestN] = [k, n];
  return best;
}
