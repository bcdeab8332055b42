// Loader for CCAO residential improvement characteristics (open data x54s-btds), one row per PIN-year-card.
// Rows are chained per PIN so the join can pick the year nearest a sale without sorting millions of rows.
import { CCAO_RES_CHARS } from '../layouts.js';
import { f64, i16, i8, u8 } from './grow.js';
import { buildPinIndex, type PinIndex } from './pin-index.js';
import { invalidFile, isPlausibleYear, MAX_PLAUSIBLE_YEAR, parseCookPin, parseInteger, parseNumber, type RowRef } from './fields.js';
import { unitsFromCharApts } from './classes.js';
import { loadCsv, newStats, type FileStats, type ProgressFn } from './run.js';

export const UNKNOWN_U8 = 255;

export type CookChars = {
  year: Int16Array;
  yearBuilt: Int16Array; //  -1 unknown
  sqft: Float64Array; //     NaN unknown
  beds: Int8Array; //        -1 unknown
  aptsUnits: Uint8Array; //  units decoded from char_apts, 0 unknown
  repairCnd: Uint8Array; //  1..3, UNKNOWN_U8
  renovation: Uint8Array; // 0/1, UNKNOWN_U8
  pinKey: Float64Array;
  index: PinIndex;
  length: number;
};

function codeOrUnknown(ref: RowRef, column: string, raw: string, allowed: readonly number[]): number {
  const v = parseInteger(ref, column, raw);
  if (Number.isNaN(v)) return UNKNOWN_U8;
  if (!allowed.includes(v)) throw invalidFile(ref.file, ref.pos, column, `not a CCAO code (${allowed.join(', ')})`, raw);
  return v;
}

export async function loadCcaoChars(path: string, onProgress?: ProgressFn): Promise<{ chars: CookChars; stats: FileStats }> {
  const stats = newStats(CCAO_RES_CHARS.file);
  const c = { pinKey: f64(), year: i16(), yearBuilt: i16(), sqft: f64(), beds: i8(), aptsUnits: u8(), repairCnd: u8(), renovation: u8() };
  await loadCsv(path, CCAO_RES_CHARS, stats, (cols) => {
    const [iPin, iYear, iYrblt, iSf, iBeds, iApts, iRepair, iReno] = ['pin', 'year', 'char_yrblt', 'char_bldg_sf', 'char_beds', 'char_apts', 'char_repair_cnd', 'char_renovation'].map((k) => cols.get(k)!);
    return (f, ref) => {
      const pin = parseCookPin(ref, 'pin', f[iPin]);
      const year = parseInteger(ref, 'year', f[iYear]);
      if (!isPlausibleYear(year)) throw invalidFile(ref.file, ref.pos, 'year', 'missing or out-of-range year', f[iYear]);
      const yrblt = parseInteger(ref, 'char_yrblt', f[iYrblt]);
      const sqft = parseNumber(ref, 'char_bldg_sf', f[iSf]);
      const beds = parseInteger(ref, 'char_beds', f[iBeds]);
      if (sqft < 0 || beds < 0 || beds > 127 || yrblt < 0 || yrblt > MAX_PLAUSIBLE_YEAR) {
        const [col, raw] = sqft < 0 ? ['char_bldg_sf', f[iSf]] : beds < 0 || beds > 127 ? ['char_beds', f[iBeds]] : ['char_yrblt', f[iYrblt]];
        throw invalidFile(ref.file, ref.pos, col, 'value out of range', raw);
      }
      const apts = parseInteger(ref, 'char_apts', f[iApts]);
      c.year.push(year);
      c.yearBuilt.push(Number.isNaN(yrblt) || yrblt === 0 ? -1 : yrblt);
      c.sqft.push(sqft > 0 ? sqft : NaN);
      c.beds.push(Number.isNaN(beds) ? -1 : beds);
      c.aptsUnits.push(Number.isNaN(apts) ? 0 : unitsFromCharApts(apts));
      c.repairCnd.push(codeOrUnknown(ref, 'char_repair_cnd', f[iRepair], [1, 2, 3]));
      const reno = codeOrUnknown(ref, 'char_renovation', f[iReno], [0, 1, 2]); // vars_dict_legacy.csv codes 2 = "No"
      c.renovation.push(reno === UNKNOWN_U8 ? UNKNOWN_U8 : reno === 1 ? 1 : 0);
      c.pinKey.push(pin);
      stats.rowsKept++;
    };
  }, onProgress);
  const chars: CookChars = {
    year: c.year.view(), yearBuilt: c.yearBuilt.view(), sqft: c.sqft.view(), beds: c.beds.view(), aptsUnits: c.aptsUnits.view(),
    repairCnd: c.repairCnd.view(), renovation: c.renovation.view(), pinKey: c.pinKey.view(), index: buildPinIndex(c.pinKey.view()), length: c.year.length,
  };
  return { chars, stats };
}

/**
 * Row of characteristics group `g` (one PIN) for a sale in `saleYear`: the latest year <= saleYear, else the earliest
 * later year. Several cards in one year: the largest building area wins (the main building), then file order.
 */
export function charsRowInGroup(chars: CookChars, g: number, saleYear: number): number {
  const ix = chars.index;
  let best = -1;
  for (let k = ix.start[g]; k < ix.start[g + 1]; k++) {
    const i = ix.rows[k];
    if (best === -1 || isBetter(chars, i, best, saleYear)) best = i;
  }
  return best;
}

function isBetter(ch: CookChars, i: number, best: number, saleYear: number): boolean {
  const yi = ch.year[i];
  const yb = ch.year[best];
  if (yi === yb) return (ch.sqft[i] || 0) > (ch.sqft[best] || 0);
  const iBefore = yi <= saleYear;
  const bBefore = yb <= saleYear;
  if (iBefore !== bBefore) return iBefore;
  return iBefore ? yi > yb : yi < yb;
}
