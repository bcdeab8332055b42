// Open-data rows (parcel universe + sales + characteristics, SODA JSON: every value a string) → the comp-candidate
// columns of store/columns.ts, decoded exactly as the ingest decodes the same CCAO layouts (class, deed, condition).
import { deriveCondition } from '../../ingest/condition.js';
import { ccaoClassPtype, unitsForPtype, unitsFromCharApts, isOverFourUnits } from '../../ingest/loaders/classes.js';
import { parseDeedType } from '../../ingest/loaders/fields.js';
import { CONDITION_CODE, CONDITION_SOURCE_CODE, COUNTY_CODE, DEED_CODE, TRACT_NONE } from '../../store/columns.js';
import { type SalesColumns } from '../../store/sales-columns.js';
import { dayOfIso } from '../../store/days.js';

export type SodaRow = Record<string, string | undefined>;

const digits = (s: string | undefined): string => (s ?? '').replace(/\D/g, '');
const numOr = (s: string | undefined, fallback: number): number => {
  const v = s === undefined || s.trim() === '' ? NaN : Number(s);
  return Number.isFinite(v) ? v : fallback;
};

function deedCode(raw: string | undefined): number {
  try {
    return parseDeedType({ file: 'opendata', pos: { row: 0, line: 0 } }, 'deed_type', raw ?? '');
  } catch {
    return DEED_CODE.unknown; // an unrecognised deed text is treated as not arms-length (the kernel rejects it)
  }
}

/** Characteristics row for a sale year: the latest year ≤ saleYear, else the earliest later year (as the ingest). */
function charsFor(rows: SodaRow[] | undefined, saleYear: number): SodaRow | null {
  if (!rows || rows.length === 0) return null;
  const sorted = [...rows].sort((a, b) => numOr(a.year, 0) - numOr(b.year, 0));
  let pick: SodaRow | null = null;
  for (const r of sorted) if (numOr(r.year, 0) <= saleYear) pick = r;
  return pick ?? sorted[0];
}

export type Normalized = { columns: SalesColumns; pins: string[]; fieldsMissing: string[]; dropped: Record<string, number> };

/**
 * One row per sale of a 1-4 unit residential PIN located by the universe. `tracts` is the snapshot's tract list
 * (tract_idx = its index of census_tract_geoid; TRACT_NONE when absent). fields_missing names each fact absent on
 * at least one kept row.
 */
export function normalizeOpendata(universe: SodaRow[], sales: SodaRow[], chars: SodaRow[], tracts: readonly string[] = []): Normalized {
  const loc = new Map<string, SodaRow>();
  for (const u of universe) if (!loc.has(digits(u.pin))) loc.set(digits(u.pin), u); // rows come newest year first
  const charsByPin = new Map<string, SodaRow[]>();
  for (const c of chars) {
    const list = charsByPin.get(digits(c.pin));
    if (list) list.push(c);
    else charsByPin.set(digits(c.pin), [c]);
  }
  const tractIdx = new Map(tracts.map((g, i) => [g, i]));
  const out: number[][] = [];
  const pins: string[] = [];
  const pinIdx = new Map<string, number>();
  const missing = new Set<string>();
  const dropped: Record<string, number> = {};
  const drop = (why: string) => void (dropped[why] = (dropped[why] ?? 0) + 1);
  for (const s of sales) {
    const pin = digits(s.pin), u = loc.get(pin);
    if (!u) { drop('not_in_universe'); continue; }
    const ptype = ccaoClassPtype(s.class ?? u.class ?? '');
    const price = numOr(s.sale_price, NaN), lat = numOr(u.lat, NaN), lon = numOr(u.lon, NaN);
    if (ptype === null) { drop('class_not_1_4_residential'); continue; }
    if (!(price > 0) || !Number.isFinite(lat) || !Number.isFinite(lon) || !s.sale_date) { drop('missing_price_date_or_location'); continue; }
    const day = dayOfIso(s.sale_date);
    const year = new Date(day * 86_400_000).getUTCFullYear();
    const ch = charsFor(charsByPin.get(pin), year);
    const units = unitsForPtype(ptype, unitsFromCharApts(numOr(ch?.char_apts, 0)));
    if (isOverFourUnits(units)) { drop('over_four_units'); continue; }
    const facts = ch ? { yearBuilt: numOr(ch.char_yrblt, NaN), renovation: numOr(ch.char_renovation, NaN), repairCnd: numOr(ch.char_repair_cnd, NaN) } : null;
    const sqft = numOr(ch?.char_bldg_sf, NaN), beds = numOr(ch?.char_beds, -1), yb = numOr(ch?.char_yrblt, -1);
    const t = tractIdx.get(u.census_tract_geoid ?? '') ?? TRACT_NONE;
    if (!(sqft > 0)) missing.add('sqft');
    if (beds < 0) missing.add('beds');
    if (yb <= 0) missing.add('year_built');
    if (ptype !== 0 && units === 0) missing.add('units');
    if (t === TRACT_NONE) missing.add('tract');
    const cond = deriveCondition(facts, year);
    if (cond === CONDITION_CODE.unknown) missing.add('condition');
    if (!pinIdx.has(pin)) { pinIdx.set(pin, pins.length); pins.push(pin); }
    out.push([pinIdx.get(pin) as number, lat, lon, day, price, sqft, beds, yb, units, ptype, cond, deedCode(s.deed_type), Math.max(1, numOr(s.num_parcels_sale, 1)), t, ruleSourceOf(cond)]);
  }
  return { columns: toColumns(out, pins, tracts), pins, fieldsMissing: [...missing].sort(), dropped };
}

/**
 * Source of a condition from deriveCondition: new comes from the year built, the other classes from the CCAO flags
 * (open-data comps are not ingested, so the ingest's inference never sees them; no probability is claimed).
 */
function ruleSourceOf(cond: number): number {
  if (cond === CONDITION_CODE.new) return CONDITION_SOURCE_CODE.year_built;
  return cond === CONDITION_CODE.unknown ? CONDITION_SOURCE_CODE.unknown : CONDITION_SOURCE_CODE.flags;
}

function toColumns(rows: number[][], pins: string[], tracts: readonly string[]): SalesColumns {
  const col = <T>(Type: { from(a: number[]): T }, k: number): T => Type.from(rows.map((r) => r[k]));
  return {
    length: rows.length, pin: (i) => pins[rows[i][0]],
    parcelIdx: col(Uint32Array, 0), county: new Uint8Array(rows.length).fill(COUNTY_CODE.cook), lat: col(Float64Array, 1), lon: col(Float64Array, 2),
    saleDay: col(Int32Array, 3), dateKnown: new Uint8Array(rows.length).fill(1), priceUsd: col(Float64Array, 4), sqft: col(Float64Array, 5),
    beds: col(Int8Array, 6), yearBuilt: col(Int16Array, 7), units: col(Uint8Array, 8), ptype: col(Uint8Array, 9), condition: col(Uint8Array, 10),
    deedType: col(Uint8Array, 11), numParcels: col(Uint16Array, 12), tractIdx: col(Uint16Array, 13), tracts,
    conditionSource: col(Uint8Array, 14), conditionProb: new Float32Array(rows.length).fill(NaN),
  };
}
