// Loader for Lake County (IL) GIS parcel sales: one row per sale carrying building facts, location and ZIP.
// Lake rows have no CCAO repair/renovation facts; an absent CONDITION is inferred after the join (src/ingest/condition/).
import { LAKE_GIS_SALES } from '../layouts.js';
import { parseConditionWord } from '../condition.js';
import { CONDITION_DERIVE } from './ccao-sales.js';
import { f64, i16, i32, i8, u16, u8 } from './grow.js';
import { invalidFile, MAX_PLAUSIBLE_YEAR, parseCoord, parseDate, parseDeedType, parseInteger, parseLakePin, parseNumber, parseZip, requireNumber, type RowRef } from './fields.js';
import { isOverFourUnits, lakeClassPtype, unitsForPtype } from './classes.js';
import { loadCsv, newStats, skip, type FileStats, type ProgressFn } from './run.js';

export type LakeSales = {
  pinKey: Float64Array; saleDay: Int32Array; dateKnown: Uint8Array; saleYear: Int16Array; priceUsd: Float64Array;
  deedType: Uint8Array; numParcels: Uint16Array; ptype: Uint8Array; units: Uint8Array; sqft: Float64Array; beds: Int8Array;
  yearBuilt: Int16Array; condition: Uint8Array; lat: Float64Array; lon: Float64Array; zip: Int32Array;
  classText: string[]; address: string[]; length: number;
};

const TRUE_WORDS = new Set(['1', 'y', 'yes', 'true', 't']);
const FALSE_WORDS = new Set(['', '0', 'n', 'no', 'false', 'f']);

function parseFlag(ref: RowRef, column: string, raw: string): boolean {
  const s = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(s)) return true;
  if (FALSE_WORDS.has(s)) return false;
  throw invalidFile(ref.file, ref.pos, column, 'not a yes/no flag', raw);
}

/** Copies a string out of its parent chunk so a kept address does not pin a megabyte of CSV text in memory. */
const own = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

export async function loadLakeSales(path: string, onProgress?: ProgressFn): Promise<{ sales: LakeSales; stats: FileStats }> {
  const stats = newStats(LAKE_GIS_SALES.file);
  const c = {
    pinKey: f64(), saleDay: i32(), dateKnown: u8(), saleYear: i16(), priceUsd: f64(), deedType: u8(), numParcels: u16(), ptype: u8(), units: u8(),
    sqft: f64(), beds: i8(), yearBuilt: i16(), condition: u8(), lat: f64(), lon: f64(), zip: i32(),
  };
  const classText: string[] = [];
  const address: string[] = [];
  await loadCsv(path, LAKE_GIS_SALES, stats, (cols) => {
    const ix = (k: string): number => cols.get(k)!;
    const opt = (f: string[], k: string): string => (ix(k) < 0 ? '' : f[ix(k)]);
    return (f, ref) => {
      const pin = parseLakePin(ref, 'PIN', f[ix('PIN')]);
      const date = parseDate(ref, 'SALE_DATE', f[ix('SALE_DATE')]);
      const priceUsd = requireNumber(ref, 'SALE_PRICE', f[ix('SALE_PRICE')]);
      if (priceUsd < 0) throw invalidFile(ref.file, ref.pos, 'SALE_PRICE', 'negative price', f[ix('SALE_PRICE')]);
      const deed = parseDeedType(ref, 'DEED_TYPE', f[ix('DEED_TYPE')]);
      const lat = parseCoord(ref, 'LATITUDE', f[ix('LATITUDE')], 'lat');
      const lon = parseCoord(ref, 'LONGITUDE', f[ix('LONGITUDE')], 'lon');
      const zip = parseZip(ref, 'ZIP', f[ix('ZIP')]);
      const sqft = parseNumber(ref, 'BLDG_SQFT', opt(f, 'BLDG_SQFT'));
      const beds = parseInteger(ref, 'BEDROOMS', opt(f, 'BEDROOMS'));
      const yearBuilt = parseInteger(ref, 'YEAR_BUILT', opt(f, 'YEAR_BUILT'));
      const unitsRaw = parseInteger(ref, 'UNITS', opt(f, 'UNITS'));
      const numRaw = parseInteger(ref, 'NUM_PARCELS', opt(f, 'NUM_PARCELS'));
      const multi = parseFlag(ref, 'MULTI_PARCEL', opt(f, 'MULTI_PARCEL'));
      const condWord = parseConditionWord(opt(f, 'CONDITION'));
      if (condWord === null) throw invalidFile(ref.file, ref.pos, 'CONDITION', 'not one of distressed, dated, renovated, new', opt(f, 'CONDITION'));
      if (sqft < 0 || beds < 0 || beds > 127 || unitsRaw < 0 || yearBuilt < 0 || yearBuilt > MAX_PLAUSIBLE_YEAR || numRaw < 1 || numRaw > 65535) {
        const bad = sqft < 0 ? 'BLDG_SQFT' : beds < 0 || beds > 127 ? 'BEDROOMS' : unitsRaw < 0 ? 'UNITS' : numRaw < 1 || numRaw > 65535 ? 'NUM_PARCELS' : 'YEAR_BUILT';
        throw invalidFile(ref.file, ref.pos, bad, 'value out of range', opt(f, bad));
      }
      if (Number.isNaN(lat)) return skip(stats, 'no_location');
      const ptype = lakeClassPtype(f[ix('PROP_CLASS')]);
      if (ptype === null) return skip(stats, 'class_not_1_4_unit_residential');
      const units = Number.isNaN(unitsRaw) ? unitsForPtype(ptype, 0) : unitsRaw;
      if (isOverFourUnits(units)) return skip(stats, 'over_4_units');
      const yb = Number.isNaN(yearBuilt) || yearBuilt === 0 ? -1 : yearBuilt;
      const cond = opt(f, 'CONDITION').trim() !== '' ? condWord : CONDITION_DERIVE;
      const numParcels = Number.isNaN(numRaw) ? (multi ? 2 : 1) : multi ? Math.max(2, numRaw) : numRaw;
      stats.rowsKept++;
      c.pinKey.push(pin); c.saleDay.push(date.day); c.dateKnown.push(date.exact ? 1 : 0); c.saleYear.push(date.year);
      c.priceUsd.push(priceUsd); c.deedType.push(deed); c.numParcels.push(numParcels); c.ptype.push(ptype); c.units.push(units);
      c.sqft.push(sqft > 0 ? sqft : NaN); c.beds.push(Number.isNaN(beds) ? -1 : beds); c.yearBuilt.push(yb); c.condition.push(cond);
      c.lat.push(lat); c.lon.push(lon); c.zip.push(zip === '' ? -1 : Number(zip));
      classText.push(own(f[ix('PROP_CLASS')].trim()));
      address.push(own(opt(f, 'SITE_ADDRESS').trim()));
    };
  }, onProgress);
  const v = Object.fromEntries(Object.entries(c).map(([k, g]) => [k, g.view()])) as unknown as Omit<LakeSales, 'classText' | 'address' | 'length'>;
  return { sales: { ...v, classText, address, length: c.pinKey.length }, stats };
}
