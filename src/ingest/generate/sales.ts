// Sales from the known surface: arms-length sales (fat-tailed, tier-dependent noise around the true value), same-PIN flip pairs
// (distressed buy, renovated resale 4-10 months later), and the defect rows the engine must reject, each at its rate.
import { GENERATOR } from '../../registry/groups/generator.js';
import { yearOfDay, dayOfIso } from '../../store/days.js';
import type { ParcelTable } from './parcels.js';
import type { RentModel } from './rents.js';
import type { Rng } from './rng.js';
import type { DefectKind, FlipRole, SaleRec } from './sales-out.js';
import { COND_DISTRESSED, COND_NEW, COND_RENOVATED, asIsUsd, lnArv, repairCostUsd, type TimeIndex } from './surface.js';
import type { GenTract } from './tracts.js';
import { saleNoiseLog } from './noise.js';
import { PT_CONDO } from './buildings.js';

const G = GENERATOR.v;
const NON_ARMS_DEEDS = ['Executor', 'Beneficiary', 'Other'] as const;
const DAY_TRIES = 8;

/** Where generated sale rows go: the CSV writer (SalesOut) or the dry pass's recorder (anchor-realised.ts). */
export type SaleSink = { emit(s: SaleRec): void };

export type SalesCtx = {
  p: ParcelTable; tracts: readonly GenTract[];
  /** Per tract: location term (deviation and calibration offset; the whole level for a tract without a real series). */
  locLog: Float64Array;
  /** Per tract: its time index (its neighborhood's real level series, else the county index). */
  timeOf: readonly TimeIndex[];
  rents: RentModel;
  startDay: number; endDay: number; out: SaleSink; rng: Rng;
  /** Per parcel: day of the flip resale (after it the building is renovated), -1 when not a flip. */
  flipResaleDay: Int32Array;
  /** Per parcel: day of the flip buy, -1 when not a flip (the characteristics writer needs the pre-flip year). */
  flipBuyDay: Int32Array;
  docSeq: { n: number };
};

const round100 = (x: number): number => Math.max(100, Math.round(x / 100) * 100);

/** Condition of parcel i on a day: flips turn renovated at their resale; new buildings age out of `new`. */
export function condAt(c: SalesCtx, i: number, day: number): number {
  if (c.p.flip[i] === 1) return day < c.flipResaleDay[i] ? COND_DISTRESSED : COND_RENOVATED;
  const base = c.p.cond[i];
  if (base !== COND_NEW) return base;
  return yearOfDay(day) - c.p.yearBuilt[i] <= G.new_condition_max_age_years ? COND_NEW : COND_RENOVATED;
}

/** True value (pre-noise) of parcel i in a condition on a day: its ARV, less the price of its repair when it needs work. */
export function valueUsd(c: SalesCtx, i: number, cond: number, day: number): number {
  const p = c.p;
  const h = { sqft: p.sqft[i], beds: p.beds[i], yearBuilt: p.yearBuilt[i], units: p.units[i], isCondo: p.ptype[i] === PT_CONDO, quality: p.quality[i] };
  const arv = Math.exp(lnArv(c.locLog[p.tract[i]], c.timeOf[p.tract[i]], h, cond === COND_NEW, day, yearOfDay(day)));
  return asIsUsd(arv, cond, repairCostUsd(cond, p.sqft[i], p.repairScope[i], day));
}

/** Recorder document number: 2-digit year then a running number (unique per deed; a multi-parcel deed shares one). */
function docNo(c: SalesCtx, day: number): string {
  return String(yearOfDay(day) % 100).padStart(2, '0') + String(++c.docSeq.n).padStart(8, '0');
}

type RowSpec = { day: number; priceUsd: number; copies?: SaleRec; deed: string; numParcels?: number; doc?: string; arms: boolean; defect: DefectKind; flipRole?: FlipRole };

function record(c: SalesCtx, i: number, r: RowSpec): SaleRec {
  const cond = condAt(c, i, r.day);
  return {
    parcel: i, day: r.day, priceUsd: r.priceUsd, copies: r.copies, deed: r.deed, numParcels: r.numParcels ?? 1, docNo: r.doc ?? docNo(c, r.day), cond,
    trueValueUsd: valueUsd(c, i, cond, r.day), trueArvUsd: valueUsd(c, i, cond === COND_NEW ? COND_NEW : COND_RENOVATED, r.day),
    trueRentUsd: c.rents.propertyRentUsd(c.p, i, cond, r.day), arms: r.arms, defect: r.defect, flipRole: r.flipRole ?? '',
  };
}

/** ln level of parcel i's tract on a day (its neighborhood's level, offset included): the noise tier's yardstick. */
export function levelLog(c: Pick<SalesCtx, 'p' | 'locLog' | 'timeOf'>, i: number, day: number): number {
  const t = c.p.tract[i];
  return c.locLog[t] + c.timeOf[t].logAt(day);
}

/** A noisy sale price of a true value (Student-t noise, wider for houses cheap for their neighborhood), in USD. */
export function noisyPrice(c: SalesCtx, i: number, valueUsdAt: number, day: number, rng: Rng): number {
  return valueUsdAt * Math.exp(saleNoiseLog(rng, Math.log(valueUsdAt) - levelLog(c, i, day)));
}

/** One arms-length sale: price = true value x exp(noise), rounded to $100. */
function armsSale(c: SalesCtx, i: number, day: number, flipRole: FlipRole): SaleRec {
  const deed = c.rng.chance(G.trustee_share) ? 'Trustee' : 'Warranty';
  const value = valueUsd(c, i, condAt(c, i, day), day);
  const price = round100(noisyPrice(c, i, value, day, c.rng));
  return record(c, i, { day, priceUsd: price, deed, arms: true, defect: 'none', flipRole });
}

/** Up to n sale days in [from, endDay], sorted, at least sale_min_gap_days apart (fewer when they do not fit). */
function saleDays(c: SalesCtx, n: number, from: number): number[] {
  for (let want = n; want > 0; want--) {
    for (let t = 0; t < DAY_TRIES; t++) {
      const days = Array.from({ length: want }, () => c.rng.int(from, c.endDay)).sort((a, b) => a - b);
      if (days.every((d, k) => k === 0 || d - days[k - 1] >= G.sale_min_gap_days)) return days;
    }
  }
  return [];
}

function anyDay(c: SalesCtx): number {
  return c.rng.int(c.startDay, c.endDay);
}

/** The defect rows hanging off one arms-length sale, each drawn at its rate. */
function defects(c: SalesCtx, a: SaleRec): void {
  const i = a.parcel, r = c.rng;
  if (r.chance(G.rate_quitclaim)) {
    const day = anyDay(c);
    const price = round100(valueUsd(c, i, condAt(c, i, day), day) * r.uniform(G.quitclaim_price_frac[0], G.quitclaim_price_frac[1]));
    c.out.emit(record(c, i, { day, priceUsd: price, deed: 'Quit Claim', arms: false, defect: 'quitclaim' }));
  }
  if (r.chance(G.rate_non_arms_deed)) {
    const day = anyDay(c);
    const price = round100(valueUsd(c, i, condAt(c, i, day), day) * r.uniform(G.non_arms_price_frac[0], G.non_arms_price_frac[1]));
    c.out.emit(record(c, i, { day, priceUsd: price, deed: NON_ARMS_DEEDS[r.int(0, 2)], arms: false, defect: 'non_arms_deed' }));
  }
  if (r.chance(G.rate_under_10k)) {
    const price = r.int(G.under_10k_price_usd[0], G.under_10k_price_usd[1]);
    c.out.emit(record(c, i, { day: anyDay(c), priceUsd: price, deed: 'Warranty', arms: false, defect: 'under_10k' }));
  }
  if (r.chance(G.rate_duplicate)) {
    const gap = r.int(G.duplicate_gap_days[0], G.duplicate_gap_days[1]);
    const day = a.day + gap <= c.endDay ? a.day + gap : a.day - gap;
    if (day >= c.startDay) c.out.emit(record(c, i, { day, priceUsd: a.priceUsd, copies: a, deed: a.deed, arms: false, defect: 'duplicate' }));
  }
  if (r.chance(G.rate_rapid_resale)) {
    const day = a.day + r.int(G.rapid_resale_gap_days[0], G.rapid_resale_gap_days[1]);
    const price = round100(a.priceUsd * r.uniform(G.rapid_resale_markup[0], G.rapid_resale_markup[1]));
    if (day <= c.endDay) c.out.emit(record(c, i, { day, priceUsd: price, copies: a, deed: 'Warranty', arms: false, defect: 'rapid_resale' }));
  }
  if (r.chance(G.rate_multi_parcel)) multiParcel(c, i);
}

/** One deed over k neighboring parcels of the same tract at one total price (Cook: a row per PIN; Lake: one row). */
function multiParcel(c: SalesCtx, i: number): void {
  const k = c.rng.int(G.multi_parcel_count[0], G.multi_parcel_count[1]);
  const day = anyDay(c);
  const members = [i];
  for (let j = i + 1; j < c.p.n && members.length < k && c.p.tract[j] === c.p.tract[i]; j++) members.push(j);
  const total = members.reduce((s, j) => s + valueUsd(c, j, condAt(c, j, day), day), 0);
  const price = round100(noisyPrice(c, i, total / members.length, day, c.rng) * members.length);
  const doc = docNo(c, day);
  const rows = c.tracts[c.p.tract[i]].county === 'lake' ? [i] : members;
  for (const j of rows) c.out.emit(record(c, j, { day, priceUsd: price, deed: 'Warranty', numParcels: k, doc, arms: false, defect: 'multi_parcel' }));
}

function flipPair(c: SalesCtx, i: number): void {
  const buy = c.rng.int(c.startDay, c.endDay - G.flip_gap_days[1]);
  const resale = buy + c.rng.int(G.flip_gap_days[0], G.flip_gap_days[1]);
  c.flipBuyDay[i] = buy;
  c.flipResaleDay[i] = resale;
  for (const [day, role] of [[buy, 'buy'], [resale, 'resale']] as const) {
    const s = armsSale(c, i, day, role);
    c.out.emit(s);
    defects(c, s);
  }
}

/** Generates every sale, parcel by parcel; arms-length volume targets `armsTarget` (flip legs included). */
export function generateSales(c: SalesCtx, armsTarget: number, onProgress?: (done: number, total: number) => void): void {
  let flips = 0;
  for (let i = 0; i < c.p.n; i++) flips += c.p.flip[i];
  const lambda = Math.max(armsTarget - 2 * flips, 0) / Math.max(c.p.n - flips, 1);
  for (let i = 0; i < c.p.n; i++) {
    if (c.p.flip[i] === 1) flipPair(c, i);
    else {
      const from = c.p.cond[i] === COND_NEW ? Math.max(c.startDay, dayOfIso(`${c.p.yearBuilt[i]}-07-01`)) : c.startDay;
      for (const day of from <= c.endDay ? saleDays(c, c.rng.poisson(lambda), from) : []) {
        const s = armsSale(c, i, day, '');
        c.out.emit(s);
        defects(c, s);
      }
    }
    if (onProgress && i % 20_000 === 0) onProgress(i, c.p.n);
  }
}
