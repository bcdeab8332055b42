// Loader for CCAO Parcel Sales (open data wvhk-k5uv): every row validated, 1-4 unit residential sales kept as columns.
// Building facts and location are joined later (characteristics, parcel universe); condition may come with the row.
import { CCAO_SALES } from '../layouts.js';
import { parseConditionWord } from '../condition.js';
import { f64, i16, i32, u16, u8 } from './grow.js';
import { invalidFile, isPlausibleYear, parseCookPin, parseDate, parseDeedType, parseInteger, requireNumber } from './fields.js';
import { ccaoClassPtype } from './classes.js';
import { loadCsv, newStats, skip, type FileStats, type ProgressFn } from './run.js';

/** Internal condition marker: no condition on the row; it is inferred after the join (src/ingest/condition/). */
export const CONDITION_DERIVE = 254;

export type CookSales = {
  pinKey: Float64Array; //    14-digit PIN as a number
  saleDay: Int32Array; //     days since 1970-01-01 UTC
  dateKnown: Uint8Array;
  saleYear: Int16Array;
  priceUsd: Float64Array;
  deedType: Uint8Array;
  numParcels: Uint16Array;
  ptype: Uint8Array;
  condition: Uint8Array; //   CONDITION_CODE, or CONDITION_DERIVE
  length: number;
};

export async function loadCcaoSales(path: string, onProgress?: ProgressFn): Promise<{ sales: CookSales; stats: FileStats }> {
  const stats = newStats(CCAO_SALES.file);
  const c = { pinKey: f64(), saleDay: i32(), dateKnown: u8(), saleYear: i16(), priceUsd: f64(), deedType: u8(), numParcels: u16(), ptype: u8(), condition: u8() };
  await loadCsv(path, CCAO_SALES, stats, (cols) => {
    const [iPin, iYear, iClass, iDate, iPrice, iDeed, iNum, iCond] = ['pin', 'year', 'class', 'sale_date', 'sale_price', 'deed_type', 'num_parcels_sale', 'sale_condition'].map((k) => cols.get(k)!);
    return (f, ref) => {
      const pin = parseCookPin(ref, 'pin', f[iPin]);
      const taxYear = parseInteger(ref, 'year', f[iYear]);
      const date = parseDate(ref, 'sale_date', f[iDate]);
      const priceUsd = requireNumber(ref, 'sale_price', f[iPrice]);
      if (priceUsd < 0) throw invalidFile(ref.file, ref.pos, 'sale_price', 'negative price', f[iPrice]);
      const deed = parseDeedType(ref, 'deed_type', f[iDeed]);
      const num = parseInteger(ref, 'num_parcels_sale', f[iNum]);
      if (num < 1 || num > 65535) throw invalidFile(ref.file, ref.pos, 'num_parcels_sale', 'parcel count out of range 1-65535', f[iNum]);
      const cond = iCond < 0 || f[iCond].trim() === '' ? CONDITION_DERIVE : parseConditionWord(f[iCond]);
      if (cond === null) throw invalidFile(ref.file, ref.pos, 'sale_condition', 'not one of distressed, dated, renovated, new', f[iCond]);
      if (!Number.isNaN(taxYear) && !isPlausibleYear(taxYear)) throw invalidFile(ref.file, ref.pos, 'year', 'year out of range', f[iYear]);
      const ptype = ccaoClassPtype(f[iClass]);
      if (ptype === null) return skip(stats, 'class_not_1_4_unit_residential');
      stats.rowsKept++;
      c.pinKey.push(pin);
      c.saleDay.push(date.day);
      c.dateKnown.push(date.exact ? 1 : 0);
      c.saleYear.push(date.year);
      c.priceUsd.push(priceUsd);
      c.deedType.push(deed);
      c.numParcels.push(Number.isNaN(num) ? 1 : num);
      c.ptype.push(ptype);
      c.condition.push(cond);
    };
  }, onProgress);
  const sales: CookSales = {
    pinKey: c.pinKey.view(), saleDay: c.saleDay.view(), dateKnown: c.dateKnown.view(), saleYear: c.saleYear.view(), priceUsd: c.priceUsd.view(),
    deedType: c.deedType.view(), numParcels: c.numParcels.view(), ptype: c.ptype.view(), condition: c.condition.view(), length: c.pinKey.length,
  };
  return { sales, stats };
}
