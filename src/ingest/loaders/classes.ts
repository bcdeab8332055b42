// Property classes kept by the service (1-4 unit residential) and the CCAO code tables that decode them.
// Sources: ccao.class_dict.csv (class codes, modeling groups) and vars_dict.csv (char_apts) of ccao-data.
import { PTYPE_CODE } from '../../store/columns.js';

/** CCAO classes kept, by property type. 295 (row houses, modeling group SF) is not listed by the issue; left out. */
const CCAO_CLASS_PTYPE: ReadonlyMap<number, number> = new Map<number, number>([
  ...[202, 203, 204, 205, 206, 207, 208, 209, 210, 234, 278].map((k): [number, number] => [k, PTYPE_CODE.sfh]),
  [211, PTYPE_CODE.mf2_4], // apartment building, 2 to 6 units: kept only when char_apts says 2-4
  [212, PTYPE_CODE.mf2_4], // mixed-use, 2 to 6 apartments: same
  [299, PTYPE_CODE.condo],
]);

const NOT_KEPT = 255;
/** ptype by 3-digit class number, NOT_KEPT elsewhere: one array read per row instead of a regex. */
const PTYPE_BY_CLASS = new Uint8Array(1000).fill(NOT_KEPT);
for (const [cls, ptype] of CCAO_CLASS_PTYPE) PTYPE_BY_CLASS[cls] = ptype;

/** Property type code of a CCAO class ("203", "2-03"), or null when the class is not 1-4 unit residential. */
export function ccaoClassPtype(raw: string): number | null {
  let s = raw;
  if (s.length !== 3) s = raw.trim().replace(/-/g, '');
  if (s.length !== 3) return null;
  const a = s.charCodeAt(0) - 48, b = s.charCodeAt(1) - 48, c = s.charCodeAt(2) - 48;
  if (!(a >= 0 && a <= 9 && b >= 0 && b <= 9 && c >= 0 && c <= 9)) return null;
  const ptype = PTYPE_BY_CLASS[a * 100 + b * 10 + c];
  return ptype === NOT_KEPT ? null : ptype;
}

/**
 * Units in the building from CCAO char_apts (vars_dict.csv, qu_num_apts): 1 Two, 2 Three, 3 Four, 4 Five, 5 Six,
 * 6 None. Returns the unit count, 0 when unknown (None, 0 or empty).
 */
export const CHAR_APTS_UNITS: ReadonlyMap<number, number> = new Map([
  [1, 2],
  [2, 3],
  [3, 4],
  [4, 5],
  [5, 6],
  [6, 0],
]);

export function unitsFromCharApts(code: number): number {
  return CHAR_APTS_UNITS.get(code) ?? 0;
}

/** Units for a kept parcel: single-family and condo units are 1; a 2-4 flat takes char_apts (0 when unknown). */
export function unitsForPtype(ptype: number, charAptsUnits: number): number {
  return ptype === PTYPE_CODE.mf2_4 ? charAptsUnits : 1;
}

/** The building is outside the 1-4 unit scope (a 5 or 6 unit class 211/212). */
export function isOverFourUnits(units: number): boolean {
  return units > 4;
}

/**
 * Lake County GIS PROP_CLASS: CCAO-style numeric codes as above, or land-use words. Words are normalized to lower case
 * letters and digits: single family words → sfh; condo words → condo; 2-4 unit words → mf2_4. Anything else is not
 * 1-4 unit residential.
 */
const LAKE_CLASS_WORDS: ReadonlyMap<string, number> = new Map<string, number>([
  ...['sfh', 'sfr', 'singlefamily', 'singlefamilyresidence', 'singlefamilyresidential', 'residential', 'residentialimproved', 'townhouse', 'townhome'].map(
    (k): [string, number] => [k, PTYPE_CODE.sfh],
  ),
  ...['condo', 'condominium', 'residentialcondo', 'residentialcondominium'].map((k): [string, number] => [k, PTYPE_CODE.condo]),
  ...['mf24', 'mf', 'multifamily', 'multifamily24', 'multifamily24units', 'multifamily24unit', '24unit', '24units', '24flat', 'duplex', 'triplex', 'fourplex', 'quadplex', '2flat', '3flat', '4flat', 'twoflat', 'threeflat', 'fourflat', 'smallmultifamily'].map(
    (k): [string, number] => [k, PTYPE_CODE.mf2_4],
  ),
]);

export function lakeClassPtype(raw: string): number | null {
  const numeric = ccaoClassPtype(raw);
  if (numeric !== null) return numeric;
  const key = raw.trim().toLowerCase().replace(/[^a-z0-9]/g, '');
  return LAKE_CLASS_WORDS.get(key) ?? null;
}
