// Open-data fixture rows around a subject at (41.85, -87.65), valued as of 2024-07-01 (1.0 mi / 365 d window).
import type { Row } from './fake-soda.js';

export const AS_OF_ISO = '2024-07-01';
export const SUBJECT = { lat: 41.85, lon: -87.65 };
export const P1 = '17011010010000'; // sfh 0.09 mi away, renovated (chars 2023)
export const P2 = '17011010020000'; // 2-flat, dated (chars 2024), tract not in the snapshot list
export const P4 = '17011010040000'; // sfh 0.93 mi north, no characteristics
export const P5 = '17011010050000'; // commercial class 517
export const P6 = '17011010060000'; // inside the lat/lon box, outside the 1-mile circle (1.34 mi)
export const P3 = '17011010030000'; // 3.45 mi north: outside the box

export const UNIVERSE: Row[] = [
  { pin: P1, year: '2023', class: '203', lat: '41.8510', lon: '-87.6510', zip_code: '60601', census_tract_geoid: '17031000100' },
  { pin: P1, year: '2024', class: '203', lat: '41.8510', lon: '-87.6510', zip_code: '60601', census_tract_geoid: '17031000100' },
  { pin: P2, year: '2024', class: '211', lat: '41.8550', lon: '-87.6550', zip_code: '60601', census_tract_geoid: '17031000200' },
  { pin: P3, year: '2024', class: '203', lat: '41.9000', lon: '-87.6500', zip_code: '60601', census_tract_geoid: '17031000100' },
  { pin: P4, year: '2024', class: '203', lat: '41.8635', lon: '-87.6500', zip_code: '60601', census_tract_geoid: '17031000100' },
  { pin: P5, year: '2024', class: '517', lat: '41.8500', lon: '-87.6500', zip_code: '60601', census_tract_geoid: '17031000100' },
  { pin: P6, year: '2024', class: '203', lat: '41.8635', lon: '-87.6315', zip_code: '60601', census_tract_geoid: '17031000100' },
];
const sale = (pin: string, date: string, price: string, deed: string, cls: string): Row => ({ pin, year: date.slice(0, 4), class: cls, sale_date: `${date}T00:00:00.000`, sale_price: price, doc_no: `D${pin.slice(-3)}${date}`, deed_type: deed, num_parcels_sale: '1' });
export const SALES: Row[] = [
  sale(P1, '2024-03-01', '350000', 'Warranty', '203'),
  sale(P1, '2022-01-01', '200000', 'Warranty', '203'), // before the 365-day window
  sale(P2, '2024-02-01', '500000', 'Trustee', '211'),
  sale(P3, '2024-02-01', '999000', 'Warranty', '203'),
  sale(P4, '2023-09-01', '300000', 'Quit Claim', '203'),
  sale(P5, '2024-01-01', '900000', 'Warranty', '517'),
  sale(P6, '2024-01-01', '400000', 'Warranty', '203'),
];
export const CHARS: Row[] = [
  { pin: P1, year: '2023', class: '203', char_yrblt: '1920', char_bldg_sf: '1500', char_beds: '3', char_apts: '6', char_repair_cnd: '2', char_renovation: '1' },
  { pin: P2, year: '2024', class: '211', char_yrblt: '1910', char_bldg_sf: '2400', char_beds: '5', char_apts: '1', char_repair_cnd: '2', char_renovation: '0' },
];
export const DATA = { 'nj4t-kc8j': UNIVERSE, 'wvhk-k5uv': SALES, 'x54s-btds': CHARS };
