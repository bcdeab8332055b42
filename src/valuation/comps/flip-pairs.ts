// Flip pairs: same-PIN resale legs in the comp pool — a dated/distressed sale followed within flip_window_days by a
// renovated/new resale. A condition signal only: each sale is in at most one pair and a pair is never a second comp.
import type { FlipPairsSummary } from '../../contracts/arv.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { CONDITION_CODE } from '../../store/columns.js';
import { conditionName } from './comps-evidence.js';
import { armsLengthMask, type SalesColumns } from '../../store/sales-columns.js';
import { isoOfDay } from '../../store/days.js';
import { median } from '../../reference/stats.js';

/**
 * Sales rows grouped by parcel, each group in (sale_day, row) order (CSR: rows[offsets[p] .. offsets[p+1])), and per
 * row whether it can be a flip's sell leg: renovated/new at or above the price floor with a buy leg before it (before
 * any leg is taken by another pair). A comp pool holds up to a thousand rows and few of them are resales; the flag
 * spares each valuation a walk of every pool row's parcel history (scattered reads of the snapshot's columns).
 */
export type ParcelSalesIndex = { offsets: Uint32Array; rows: Uint32Array; flipSell: Uint8Array; /** armsLengthMask by row (prior-sale.ts). */ arms: Uint8Array };

export type FlipPair = {
  pin: string;
  buy_date: string;
  buy_price: number;
  buy_condition: string;
  sell_date: string;
  sell_price: number;
  sell_condition: string;
  days_held: number;
  uplift_pct: number;
};

/** `arms`: the snapshot's armsLengthMask when the caller has it (computed here otherwise). */
export function buildParcelSalesIndex(c: SalesColumns, arms: Uint8Array = armsLengthMask(c)): ParcelSalesIndex {
  let maxParcel = -1;
  for (let i = 0; i < c.length; i++) if (c.parcelIdx[i] > maxParcel) maxParcel = c.parcelIdx[i];
  const offsets = new Uint32Array(maxParcel + 2);
  for (let i = 0; i < c.length; i++) offsets[c.parcelIdx[i] + 1]++;
  for (let p = 1; p < offsets.length; p++) offsets[p] += offsets[p - 1];
  const fill = offsets.slice(0, -1);
  const rows = new Uint32Array(c.length);
  for (let i = 0; i < c.length; i++) rows[fill[c.parcelIdx[i]]++] = i;
  for (let p = 0; p + 1 < offsets.length; p++) {
    const seg = rows.subarray(offsets[p], offsets[p + 1]);
    if (seg.length > 1) seg.sort((a, b) => c.saleDay[a] - c.saleDay[b] || a - b);
  }
  const idx: ParcelSalesIndex = { offsets, rows, flipSell: new Uint8Array(c.length), arms };
  const none = new Set<number>();
  for (let i = 0; i < c.length; i++) if (isSellLeg(c, i) && buyLegOf(c, idx, i, none) >= 0) idx.flipSell[i] = 1;
  return idx;
}

const isBuyCondition = (code: number): boolean => code === CONDITION_CODE.distressed || code === CONDITION_CODE.dated;
const isSellCondition = (code: number): boolean => code === CONDITION_CODE.renovated || code === CONDITION_CODE.new;
const isSellLeg = (c: SalesColumns, r: number): boolean => isSellCondition(c.condition[r]) && c.priceUsd[r] >= COMP_POLICY.v.price_floor_usd;

/** The latest dated/distressed sale of the same parcel within the flip window before `sell`, or -1. */
function buyLegOf(c: SalesColumns, idx: ParcelSalesIndex, sell: number, used: Set<number>): number {
  const p = c.parcelIdx[sell];
  const floor = COMP_POLICY.v.price_floor_usd;
  let best = -1;
  for (let k = idx.offsets[p]; k < idx.offsets[p + 1]; k++) {
    const r = idx.rows[k];
    const gap = c.saleDay[sell] - c.saleDay[r];
    if (gap <= 0) break;
    if (gap <= TIER1.v.flip_window_days && isBuyCondition(c.condition[r]) && c.priceUsd[r] >= floor && !used.has(r)) best = r;
  }
  return best;
}

/** Flip pairs among the pool rows (sell legs), sold before asOfDay; newest sell first. */
export function detectFlipPairs(c: SalesColumns, idx: ParcelSalesIndex, poolRows: Iterable<number>, asOfDay: number): FlipPair[] {
  // Only rows with a buy leg can pair (flipSell implies isSellLeg); the others would be skipped below anyway.
  const sells: number[] = [];
  for (const r of poolRows) if (idx.flipSell[r] === 1 && c.saleDay[r] < asOfDay) sells.push(r);
  sells.sort((a, b) => c.saleDay[b] - c.saleDay[a] || a - b);
  // A row listed twice sorts next to itself: dropped there (no Set of a pool of hundreds of rows per valuation).
  let unique = 0;
  for (let k = 0; k < sells.length; k++) if (k === 0 || sells[k] !== sells[k - 1]) sells[unique++] = sells[k];
  sells.length = unique;
  const used = new Set<number>();
  const pairs: FlipPair[] = [];
  for (const sell of sells) {
    if (used.has(sell)) continue;
    const buy = buyLegOf(c, idx, sell, used);
    if (buy < 0) continue;
    used.add(buy).add(sell);
    pairs.push({
      pin: c.pin(sell),
      buy_date: isoOfDay(c.saleDay[buy]),
      buy_price: c.priceUsd[buy],
      buy_condition: conditionName(c, buy) ?? 'unknown',
      sell_date: isoOfDay(c.saleDay[sell]),
      sell_price: c.priceUsd[sell],
      sell_condition: conditionName(c, sell) ?? 'unknown',
      days_held: c.saleDay[sell] - c.saleDay[buy],
      uplift_pct: (c.priceUsd[sell] / c.priceUsd[buy] - 1) * 100,
    });
  }
  return pairs;
}

export function summarizeFlipPairs(pairs: readonly FlipPair[]): FlipPairsSummary {
  const ups = pairs.map((p) => p.uplift_pct);
  return { n: pairs.length, median_uplift_pct: ups.length === 0 ? null : median(ups), sample: pairs.slice(0, TIER1.v.flip_sample_max).map((p) => ({ ...p })) };
}
