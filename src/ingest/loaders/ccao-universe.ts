// Loader for the CCAO Parcel Universe (open data nj4t-kc8j): one row per PIN-year; the latest year of each PIN is
// used for location, ZIP, class and (when the export has it) census tract.
import { CCAO_PARCEL_UNIVERSE } from '../layouts.js';
import { f64, i16, i32, u8 } from './grow.js';
import { buildPinIndex, pickRow } from './pin-index.js';
import { invalidFile, isPlausibleYear, parseCoord, parseCookPin, parseGeoid, parseInteger, parseZip } from './fields.js';
import { ccaoClassPtype } from './classes.js';
import { UNKNOWN_U8 } from './ccao-chars.js';
import { loadCsv, newStats, type FileStats, type ProgressFn } from './run.js';

export type CookUniverse = {
  pinKey: Float64Array;
  year: Int16Array;
  lat: Float64Array; //      NaN unknown
  lon: Float64Array;
  zip: Int32Array; //        5-digit ZIP as a number, -1 unknown
  geoid: Float64Array; //    11-digit GEOID as a number, NaN when the export has none
  ptype: Uint8Array; //      PTYPE_CODE, UNKNOWN_U8 when the class is not 1-4 unit residential
  classCode: Int16Array; //  3-digit CCAO class, -1 when not numeric
  /** Distinct PINs (ascending) and, for each, its latest-year row (the first such row in file order). */
  pins: Float64Array;
  latestRow: Int32Array;
  length: number;
};

export async function loadCcaoUniverse(path: string, onProgress?: ProgressFn): Promise<{ universe: CookUniverse; stats: FileStats }> {
  const stats = newStats(CCAO_PARCEL_UNIVERSE.file);
  const c = { pinKey: f64(), year: i16(), lat: f64(), lon: f64(), zip: i32(), geoid: f64(), ptype: u8(), classCode: i16() };
  await loadCsv(path, CCAO_PARCEL_UNIVERSE, stats, (cols) => {
    const [iPin, iYear, iClass, iLat, iLon, iZip, iGeoid] = ['pin', 'year', 'class', 'lat', 'lon', 'zip_code', 'census_tract_geoid'].map((k) => cols.get(k)!);
    return (f, ref) => {
      const pin = parseCookPin(ref, 'pin', f[iPin]);
      const year = parseInteger(ref, 'year', f[iYear]);
      if (!isPlausibleYear(year)) throw invalidFile(ref.file, ref.pos, 'year', 'missing or out-of-range year', f[iYear]);
      const lat = parseCoord(ref, 'lat', f[iLat], 'lat');
      const lon = parseCoord(ref, 'lon', f[iLon], 'lon');
      if (Number.isNaN(lat) !== Number.isNaN(lon)) throw invalidFile(ref.file, ref.pos, Number.isNaN(lat) ? 'lat' : 'lon', 'one coordinate given without the other', '');
      const zip = parseZip(ref, 'zip_code', f[iZip]);
      const geoid = iGeoid < 0 ? null : parseGeoid(ref, 'census_tract_geoid', f[iGeoid]);
      const cls = f[iClass].trim().replace(/-/g, '');
      c.pinKey.push(pin);
      c.year.push(year);
      c.lat.push(lat);
      c.lon.push(lon);
      c.zip.push(zip === '' ? -1 : Number(zip));
      c.geoid.push(geoid === null ? NaN : Number(geoid));
      c.ptype.push(ccaoClassPtype(cls) ?? UNKNOWN_U8);
      c.classCode.push(/^\d{3}$/.test(cls) ? Number(cls) : -1);
      stats.rowsKept++;
    };
  }, onProgress);
  const year = c.year.view();
  const index = buildPinIndex(c.pinKey.view());
  const latestRow = new Int32Array(index.pins.length);
  for (let g = 0; g < latestRow.length; g++) latestRow[g] = pickRow(index, g, (i, best) => year[i] > year[best]);
  const universe: CookUniverse = {
    pinKey: c.pinKey.view(), year, lat: c.lat.view(), lon: c.lon.view(), zip: c.zip.view(), geoid: c.geoid.view(),
    ptype: c.ptype.view(), classCode: c.classCode.view(), pins: index.pins, latestRow, length: c.pinKey.length,
  };
  return { universe, stats };
}
