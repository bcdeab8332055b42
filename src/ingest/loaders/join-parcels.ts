// Builds the parcel table of a snapshot: Cook parcels from the parcel universe (facts from the latest
// characteristics), Lake parcels from their latest GIS sale; dense parcel_idx in (county, PIN) order; tract located.
// Every PIN join is a linear merge of sorted PIN lists (random lookups over millions of PINs were memory-bound).
import { CONDITION_CODE, COUNTY_CODE, PTYPE_CODE, TRACT_NONE } from '../../store/columns.js';
import { TractLocator } from '../../store/tract-locator.js';
import { deriveCondition } from '../condition.js';
import { charsRowInGroup, UNKNOWN_U8, type CookChars } from './ccao-chars.js';
import { CONDITION_DERIVE, type CookSales } from './ccao-sales.js';
import type { CookUniverse } from './ccao-universe.js';
import type { LakeSales } from './lake-sales.js';
import { isOverFourUnits, unitsForPtype } from './classes.js';
import { alignSorted, buildPinIndex, type PinIndex } from './pin-index.js';
import { i32, u8 } from './grow.js';
import type { TractRecord } from './tracts.js';
import { skipParcel, type FileStats } from './run.js';

export type ParcelTable = {
  pins: string[]; county: Uint8Array; lat: Float64Array; lon: Float64Array; zip: string[]; tractIdx: Uint16Array; classText: string[];
  ptype: Uint8Array; units: Uint8Array; sqft: Float64Array; beds: Int8Array; yearBuilt: Int16Array; condition: Uint8Array; address: (string | null)[];
  /** PIN keys of the Cook parcels (rows 0..cookPins.length-1), ascending. */
  cookPins: Float64Array;
  /** Lake sales grouped by PIN: Lake parcel g is row cookPins.length + g. */
  lakeIndex: PinIndex | null;
  length: number;
};

export type CookInputs = { sales: CookSales | null; chars: CookChars | null; universe: CookUniverse | null; salesStats: FileStats | null; universeStats: FileStats | null };

/** Cook sales grouped by PIN, shared by the parcel and the sales join. */
export type CookIndex = { sales: PinIndex | null; charsOfSalesGroup: Int32Array | null };

/** `renovation` (char_renovation 0/1) and `repairCnd` (char_repair_cnd 1..3) as given, UNKNOWN_U8 when unknown. */
export type Facts = { units: number; sqft: number; beds: number; yearBuilt: number; condition: number; renovation: number; repairCnd: number };

/** Facts of a Cook parcel or sale from characteristics group `cg` (-1: none) for `year`. */
export function cookFacts(chars: CookChars | null, cg: number, year: number, ptype: number): Facts {
  const row = chars === null || cg === -1 ? -1 : charsRowInGroup(chars, cg, year);
  if (row === -1 || chars === null) return { units: unitsForPtype(ptype, 0), sqft: NaN, beds: -1, yearBuilt: -1, condition: CONDITION_CODE.unknown, renovation: UNKNOWN_U8, repairCnd: UNKNOWN_U8 };
  const facts = {
    yearBuilt: chars.yearBuilt[row] > 0 ? chars.yearBuilt[row] : NaN,
    renovation: chars.renovation[row] === UNKNOWN_U8 ? NaN : chars.renovation[row],
    repairCnd: chars.repairCnd[row] === UNKNOWN_U8 ? NaN : chars.repairCnd[row],
  };
  return {
    units: unitsForPtype(ptype, chars.aptsUnits[row]), sqft: chars.sqft[row], beds: chars.beds[row], yearBuilt: chars.yearBuilt[row], condition: deriveCondition(facts, year),
    renovation: chars.renovation[row], repairCnd: chars.repairCnd[row],
  };
}

/** Latest row of group g by day (later day wins; same day, later in the file). */
function latestRow(ix: PinIndex, g: number, day: Int32Array): number {
  let best = -1;
  for (let k = ix.start[g]; k < ix.start[g + 1]; k++) if (best === -1 || day[ix.rows[k]] >= day[best]) best = ix.rows[k];
  return best;
}

/** Chosen Cook parcels as parallel columns: universe group, characteristics group, type, latest kept sale row. */
type Drafts = { g: Int32Array; cg: Int32Array; ptype: Uint8Array; sale: Int32Array; length: number };

/** Cook parcels in PIN order: 1-4 unit residential (by universe class or a kept sale), located, at most 4 units. */
function cookDrafts(c: CookInputs, ci: CookIndex): Drafts {
  const d = { g: i32(), cg: i32(), ptype: u8(), sale: i32() };
  const u = c.universe;
  if (u !== null) {
    const saleGroup = ci.sales === null ? null : alignSorted(u.pins, ci.sales.pins);
    const charsGroup = c.chars === null ? null : alignSorted(u.pins, c.chars.index.pins);
    for (let g = 0; g < u.pins.length; g++) {
      const r = u.latestRow[g];
      const sg = saleGroup === null ? -1 : saleGroup[g];
      const sale = sg === -1 ? -1 : latestRow(ci.sales!, sg, c.sales!.saleDay);
      const ptype = u.ptype[r] !== UNKNOWN_U8 ? u.ptype[r] : sale === -1 ? -1 : c.sales!.ptype[sale];
      if (ptype === -1) continue; // not 1-4 unit residential and never sold as such: not a parcel of the service
      if (Number.isNaN(u.lat[r])) { skipParcel(c.universeStats, 'without_location'); continue; }
      const cg = charsGroup === null ? -1 : charsGroup[g];
      if (ptype === PTYPE_CODE.mf2_4 && isOverFourUnits(cookFacts(c.chars, cg, u.year[r], ptype).units)) {
        skipParcel(c.universeStats, 'over_4_units');
        continue;
      }
      d.g.push(g); d.cg.push(cg); d.ptype.push(ptype); d.sale.push(sale);
    }
  }
  return { g: d.g.view(), cg: d.cg.view(), ptype: d.ptype.view(), sale: d.sale.view(), length: d.g.length };
}

type Locate = (lon: number, lat: number, geoid: number) => number;
const zipText = (z: number): string => (z < 0 ? '' : String(z).padStart(5, '0'));

function fillCook(t: ParcelTable, c: CookInputs, d: Drafts, locate: Locate): void {
  const u = c.universe!;
  for (let i = 0; i < d.length; i++) {
    const g = d.g[i];
    const r = u.latestRow[g];
    const f = cookFacts(c.chars, d.cg[i], u.year[r], d.ptype[i]);
    const saleCond = d.sale[i] === -1 ? CONDITION_DERIVE : c.sales!.condition[d.sale[i]];
    t.pins[i] = String(u.pins[g]).padStart(14, '0'); t.county[i] = COUNTY_CODE.cook; t.lat[i] = u.lat[r]; t.lon[i] = u.lon[r];
    t.zip[i] = zipText(u.zip[r]); t.classText[i] = u.classCode[r] < 0 ? '' : String(u.classCode[r]); t.ptype[i] = d.ptype[i]; t.units[i] = f.units;
    t.sqft[i] = f.sqft; t.beds[i] = f.beds; t.yearBuilt[i] = f.yearBuilt; t.address[i] = null;
    t.condition[i] = saleCond !== CONDITION_DERIVE ? saleCond : f.condition;
    t.tractIdx[i] = locate(t.lon[i], t.lat[i], u.geoid[r]);
    t.cookPins[i] = u.pins[g];
  }
}

function fillLake(t: ParcelTable, s: LakeSales, ix: PinIndex, base: number, locate: Locate): void {
  for (let g = 0; g < ix.pins.length; g++) {
    const i = base + g;
    const r = latestRow(ix, g, s.saleDay);
    t.pins[i] = String(ix.pins[g]).padStart(10, '0'); t.county[i] = COUNTY_CODE.lake; t.lat[i] = s.lat[r]; t.lon[i] = s.lon[r]; t.zip[i] = zipText(s.zip[r]);
    t.classText[i] = s.classText[r]; t.ptype[i] = s.ptype[r]; t.units[i] = s.units[r]; t.sqft[i] = s.sqft[r]; t.beds[i] = s.beds[r];
    t.yearBuilt[i] = s.yearBuilt[r]; t.condition[i] = s.condition[r] === CONDITION_DERIVE ? CONDITION_CODE.unknown : s.condition[r]; t.address[i] = s.address[r] || null;
    t.tractIdx[i] = locate(t.lon[i], t.lat[i], NaN);
  }
}

function emptyTable(nCook: number, lakeIndex: PinIndex | null): ParcelTable {
  const n = nCook + (lakeIndex?.pins.length ?? 0);
  return {
    pins: new Array(n), county: new Uint8Array(n), lat: new Float64Array(n), lon: new Float64Array(n), zip: new Array(n), tractIdx: new Uint16Array(n),
    classText: new Array(n), ptype: new Uint8Array(n), units: new Uint8Array(n), sqft: new Float64Array(n), beds: new Int8Array(n),
    yearBuilt: new Int16Array(n), condition: new Uint8Array(n), address: new Array(n), cookPins: new Float64Array(nCook), lakeIndex, length: n,
  };
}

export function indexCookSales(c: CookInputs): CookIndex {
  if (c.sales === null) return { sales: null, charsOfSalesGroup: null };
  const sales = buildPinIndex(c.sales.pinKey);
  return { sales, charsOfSalesGroup: c.chars === null ? null : alignSorted(sales.pins, c.chars.index.pins) };
}

/** Parcels of both counties, Cook first, each in PIN order: row i is parcel_idx i. */
export function buildParcels(cook: CookInputs, ci: CookIndex, lake: LakeSales | null, tracts: TractRecord[]): ParcelTable {
  const drafts = cookDrafts(cook, ci);
  const t = emptyTable(drafts.length, lake === null ? null : buildPinIndex(lake.pinKey));
  const tractByGeoid = new Map(tracts.map((tr, i) => [tr.geoid, i]));
  const locator = new TractLocator(tracts.map((tr) => tr.polygon));
  // A GEOID given by the universe wins when it is a mapped tract; otherwise the point is located.
  const locate: Locate = (lon, lat, geoid) => {
    const given = Number.isNaN(geoid) ? undefined : tractByGeoid.get(String(geoid));
    const tract = given ?? locator.locate(lon, lat);
    return tract === -1 ? TRACT_NONE : tract;
  };
  fillCook(t, cook, drafts, locate);
  if (lake !== null) fillLake(t, lake, t.lakeIndex!, drafts.length, locate);
  return t;
}
