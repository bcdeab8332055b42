// Builds the sales rows of a snapshot: each kept sale joined to its parcel (location, tract) and, for Cook, to the
// characteristics of its sale year. Rows come out in (parcel_idx, sale_day, file order) order because sales are walked
// group by group in PIN order, which is parcel order; repeat sales of a parcel sit together. `condition` holds the
// feed's code or CONDITION_DERIVE until src/ingest/condition/ infers it (with conditionProb and conditionSource).
import type { CookSales } from './ccao-sales.js';
import { UNKNOWN_U8 } from './ccao-chars.js';
import { CONDITION_SOURCE_CODE } from '../../store/columns.js';
import type { LakeSales } from './lake-sales.js';
import { isOverFourUnits } from './classes.js';
import { f64, i16, i8, u16, u32, u8 } from './grow.js';
import { alignSorted, rowsByDay } from './pin-index.js';
import { cookFacts, type CookIndex, type CookInputs, type ParcelTable } from './join-parcels.js';
import { skip, type FileStats } from './run.js';

export type SalesTable = {
  parcelIdx: Uint32Array; county: Uint8Array; lat: Float64Array; lon: Float64Array; saleDay: Int32Array; dateKnown: Uint8Array;
  priceUsd: Float64Array; sqft: Float64Array; beds: Int8Array; yearBuilt: Int16Array; units: Uint8Array; ptype: Uint8Array;
  condition: Uint8Array; deedType: Uint8Array; numParcels: Uint16Array; tractIdx: Uint16Array;
  /** char_renovation (0/1) and char_repair_cnd (1..3) of the sale year; UNKNOWN_U8 when unknown (always for Lake). */
  renovation: Uint8Array; repairCnd: Uint8Array;
  conditionProb: Float32Array; conditionSource: Uint8Array; length: number;
};

class Rows {
  parcel = u32(); day = f64(); dateKnown = u8(); price = f64(); sqft = f64(); beds = i8(); yearBuilt = i16(); units = u8(); ptype = u8();
  condition = u8(); deed = u8(); num = u16(); renovation = u8(); repairCnd = u8();
  add(parcel: number, day: number, dateKnown: number, price: number, sqft: number, beds: number, yearBuilt: number, units: number, ptype: number, cond: number, deed: number, num: number, flags: { renovation: number; repairCnd: number }): void {
    this.parcel.push(parcel); this.day.push(day); this.dateKnown.push(dateKnown); this.price.push(price); this.sqft.push(sqft); this.beds.push(beds);
    this.yearBuilt.push(yearBuilt); this.units.push(units); this.ptype.push(ptype); this.condition.push(cond); this.deed.push(deed); this.num.push(num);
    this.renovation.push(flags.renovation); this.repairCnd.push(flags.repairCnd);
  }
}

function cookRows(s: CookSales, cook: CookInputs, ci: CookIndex, parcels: ParcelTable, stats: FileStats | null, out: Rows): void {
  const ix = ci.sales!;
  const parcelOf = alignSorted(ix.pins, parcels.cookPins);
  const drop = (reason: string): void => { if (stats) { skip(stats, reason); stats.rowsKept--; } };
  for (let g = 0; g < ix.pins.length; g++) {
    const cg = ci.charsOfSalesGroup === null ? -1 : ci.charsOfSalesGroup[g];
    for (const i of rowsByDay(ix, g, s.saleDay)) {
      const f = cookFacts(cook.chars, cg, s.saleYear[i], s.ptype[i]);
      if (isOverFourUnits(f.units)) { drop('over_4_units'); continue; }
      if (parcelOf[g] === -1) { drop('no_parcel_location'); continue; }
      out.add(parcelOf[g], s.saleDay[i], s.dateKnown[i], s.priceUsd[i], f.sqft, f.beds, f.yearBuilt, f.units, s.ptype[i], s.condition[i], s.deedType[i], s.numParcels[i], f);
    }
  }
}

/** Lake GIS rows carry no CCAO repair or renovation facts. */
const NO_FLAGS = { renovation: UNKNOWN_U8, repairCnd: UNKNOWN_U8 };

function lakeRows(s: LakeSales, parcels: ParcelTable, out: Rows): void {
  const ix = parcels.lakeIndex!;
  const base = parcels.cookPins.length;
  for (let g = 0; g < ix.pins.length; g++) {
    for (const i of rowsByDay(ix, g, s.saleDay)) {
      out.add(base + g, s.saleDay[i], s.dateKnown[i], s.priceUsd[i], s.sqft[i], s.beds[i], s.yearBuilt[i], s.units[i], s.ptype[i], s.condition[i], s.deedType[i], s.numParcels[i], NO_FLAGS);
    }
  }
}

export function buildSales(cook: CookInputs, ci: CookIndex, lake: LakeSales | null, parcels: ParcelTable): SalesTable {
  const r = new Rows();
  if (cook.sales) cookRows(cook.sales, cook, ci, parcels, cook.salesStats, r);
  if (lake) lakeRows(lake, parcels, r);
  const parcelIdx = r.parcel.view();
  const n = parcelIdx.length;
  const t: SalesTable = {
    parcelIdx, county: new Uint8Array(n), lat: new Float64Array(n), lon: new Float64Array(n), saleDay: Int32Array.from(r.day.view()),
    dateKnown: r.dateKnown.view(), priceUsd: r.price.view(), sqft: r.sqft.view(), beds: r.beds.view(), yearBuilt: r.yearBuilt.view(),
    units: r.units.view(), ptype: r.ptype.view(), condition: r.condition.view(), deedType: r.deed.view(), numParcels: r.num.view(), tractIdx: new Uint16Array(n),
    renovation: r.renovation.view(), repairCnd: r.repairCnd.view(), conditionProb: new Float32Array(n).fill(NaN), conditionSource: new Uint8Array(n).fill(CONDITION_SOURCE_CODE.unknown), length: n,
  };
  for (let k = 0; k < n; k++) {
    const p = parcelIdx[k];
    t.county[k] = parcels.county[p]; t.lat[k] = parcels.lat[p]; t.lon[k] = parcels.lon[p]; t.tractIdx[k] = parcels.tractIdx[p];
  }
  return t;
}
