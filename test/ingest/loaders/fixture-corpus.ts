// A small hand-written raw corpus (every layout) in a temp dir, for loader and store tests. Values are chosen so
// each expected join result can be read off the rows below (see the comments on each row).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const square = (lon0: number, lat0: number, lon1: number, lat1: number): number[][][] => [[[lon0, lat0], [lon1, lat0], [lon1, lat1], [lon0, lat1], [lon0, lat0]]];

/** Three 0.1° tracts: Cook A (lon -87.70..-87.60), Cook B (-87.60..-87.50), both lat 41.80..41.90; Lake C near Waukegan. */
export const TRACTS = [
  { GEOID: '17031000200', COUNTYFP: '031', NAMELSAD: 'Census Tract 2', muni: 'Chicago', vintage: 'synthetic test', geometry: square(-87.6, 41.8, -87.5, 41.9) },
  { GEOID: '17031000100', COUNTYFP: '031', NAMELSAD: 'Census Tract 1', muni: 'Chicago', vintage: 'synthetic test', geometry: square(-87.7, 41.8, -87.6, 41.9) },
  { GEOID: '17097860100', COUNTYFP: '097', NAMELSAD: 'Census Tract 8601', muni: 'Waukegan', vintage: 'synthetic test', geometry: square(-87.9, 42.3, -87.8, 42.4) },
];

export function tractsGeojson(tracts = TRACTS): string {
  return JSON.stringify({
    type: 'FeatureCollection',
    features: tracts.map(({ geometry, ...properties }) => ({ type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: geometry } })),
  });
}

export const FILES: Record<string, string[]> = {
  'ccao_parcel_sales.csv': [
    'pin,year,township_code,nbhd,class,sale_date,sale_price,doc_no,deed_type,num_parcels_sale',
    '17-01-101-001-0000,2019,76,100,203,2019-06-26T00:00:00.000,250000,D1,Warranty,1', // sfh in tract A (index 1)
    '17011010010000,2021,76,100,203,2021-03-01,300000,D2,Quit Claim,1', //            same PIN, quitclaim kept (kernel rejects)
    '17011010020000,2020,76,100,211,2020-01-15,420000,D3,2,1', //                      2-4 flat, numeric deed code 2 (Trustee)
    '17011010030001,2020,76,100,299,2020-05-05,180000,D4,Trustee,1', //                condo
    '17011010040000,2020,76,100,517,2020-05-05,900000,D5,Warranty,1', //               commercial class: skipped
    '17011010050000,2020,76,100,211,2020-07-07,700000,D6,Warranty,1', //               char_apts 4 = five units: skipped
    '17011010060000,2020,76,100,203,2020-08-08,5000,D7,Other,3', //                    under $10k multi-parcel, but kept
  ],
  'ccao_res_characteristics.csv': [
    'pin,year,class,township_code,char_yrblt,char_bldg_sf,char_beds,char_apts,char_repair_cnd,char_renovation',
    '17011010010000,2018,203,76,1950,1200,3,6,3,0', //  2019 sale → nearest year <= 2019 is 2018: distressed (repair 3)
    '17011010010000,2020,203,76,1950,1250,3,6,2,1', //  2021 sale → 2020 row: renovated
    '17011010020000,2021,211,76,1925,2400,5,2,2,0', //  only a later year: used for the 2020 sale; char_apts 2 → 3 units; dated
    '17011010030001,2020,299,76,2019,900,2,6,2,0', //   built 2019, sold 2020 → new
    '17011010050000,2020,211,76,1920,4000,8,4,2,0', //  char_apts 4 → 5 units
  ],
  'ccao_parcel_universe.csv': [
    'pin,year,class,township_code,nbhd_code,lat,lon,zip_code',
    '17011010010000,2020,203,76,100,41.85,-87.65,60601', //   tract A (17031000100, index 0)
    '17011010010000,2021,203,76,100,41.86,-87.66,60601', //   later year wins: lat 41.86
    '17011010020000,2021,211,76,100,41.85,-87.55,60602', //   tract B (index 1)
    '17011010030001,2021,299,76,100,41.95,-87.55,60603', //   north of every tract → TRACT_NONE
    '17011010040000,2021,517,76,100,41.85,-87.65,60601', //   commercial: not a parcel
    '17011010050000,2021,211,76,100,41.85,-87.65,60601', //   five units: not a parcel
    '17011010060000,2021,203,76,100,41.84,-87.64,60601', //   tract A
  ],
  'lake_gis_sales.csv': [
    'PIN,SALE_DATE,SALE_PRICE,DEED_TYPE,PROP_CLASS,LATITUDE,LONGITUDE,ZIP,BLDG_SQFT,BEDROOMS,YEAR_BUILT,UNITS,CONDITION,SITE_ADDRESS',
    '15-22-301-008,2020-02-02,310000,Warranty,Single Family,42.35,-87.85,60085,1800,3,1960,1,renovated,"12 Main St, Waukegan"',
    '1522301009,2020,150000,Executor,2-4 Unit,42.36,-87.86,60085,2600,6,1915,2,,"14 Main St"', // year-only date; no condition, old → unknown
    '1522301010,2020-03-03,99000,Warranty,Commercial,42.36,-87.86,60085,,,,,,', //            skipped class
  ],
  'hud_safmr.csv': [
    'ZIP Code,HUD Area Code,HUD Metro Fair Market Rent Area Name,SAFMR 0BR,SAFMR 1BR,SAFMR 2BR,SAFMR 3BR,SAFMR 4BR',
    '60601,METRO16980M16980,"Chicago-Joliet-Naperville, IL HUD Metro FMR Area","$1,500",1700,2000,2500,2900',
  ],
  'listings.csv': [
    'listing_id,address,zip,price,url,lat,lon,list_date,status,pin,units',
    'L1,1 Test Ave,60601,275000,https://example.com/L1,41.85,-87.65,2024-05-01,active,17-01-101-001-0000,1',
    'L2,2 Test Ave,60602,410000,https://example.com/L2,41.85,-87.55,2024-05-02,pending,,2',
  ],
  'listing_history.csv': ['listing_id,event_date,event,price', 'L1,2024-05-10,price_change,265000', 'L1,2024-05-01,listed,275000'],
};

export type Fixture = { dataDir: string; rawDir: string; cleanup: () => void };

/** Writes the corpus into `<tmp>/raw`; `edit` may replace any file's lines (null deletes the file). */
export function writeFixture(edit: (files: Record<string, string[] | null>) => void = () => {}): Fixture {
  const dataDir = mkdtempSync(join(tmpdir(), 'avm-ingest-'));
  const rawDir = join(dataDir, 'raw');
  mkdirSync(rawDir, { recursive: true });
  const files: Record<string, string[] | null> = Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k, [...v]]));
  edit(files);
  for (const [name, lines] of Object.entries(files)) if (lines) writeFileSync(join(rawDir, name), `${lines.join('\n')}\n`);
  writeFileSync(join(rawDir, 'tracts.geojson'), tractsGeojson());
  return { dataDir, rawDir, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** Replaces one field (by column name) of data row `row` (1-based) in a CSV file's lines. */
export function setField(lines: string[], row: number, column: string, value: string): void {
  const header = lines[0].split(',');
  const k = header.indexOf(column);
  const fields = lines[row].split(',');
  fields[k] = value;
  lines[row] = fields.join(',');
}
