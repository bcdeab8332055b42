// A real CCAO export (all char_* columns, ISO timestamps, columns in another order, extra columns) loads through the
// same loaders. The characteristics rows are copied verbatim from ccao-data/ccao data-raw/chars_sample_athena.csv
// (commit 18e12ca), plus the township_code column that the open-data export (x54s-btds) carries and Athena omits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestAll } from '../../../src/ingest/ingest.js';
import { openStore } from '../../../src/store/store.js';
import { CONDITION_CODE, PTYPE_CODE } from '../../../src/store/columns.js';
import { writeFixture, type Fixture } from './fixture-corpus.js';

const CHARS = [
  'pin,year,class,char_yrblt,char_bldg_sf,char_land_sf,char_beds,char_rooms,char_fbath,char_hbath,char_frpl,char_type_resd,char_cnst_qlty,char_apts,char_tp_dsgn,char_attic_fnsh,char_gar1_att,char_gar1_area,char_gar1_size,char_gar1_cnst,char_attic_type,char_bsmt,char_ext_wall,char_heat,char_repair_cnd,char_bsmt_fin,char_roof_cnst,char_use,char_age,char_site,char_ncu,char_renovation,char_porch,char_air,char_tp_plan,township_code',
  '09363230550000,2019,203,1923,1200,4375,3,5,1,1,0,1,2,6,2,3,2,2,7,0,3,1,3,2,2,3,1,1,95,2,0,0,1,2,2,77',
  '09363230550000,2016,203,1923,1200,4375,3,5,1,1,0,1,2,6,2,3,2,2,7,0,3,1,3,2,2,3,1,1,92,2,0,0,1,2,2,77',
  '14321260280000,2018,211,1878,2850,3125,4,9,3,0,0,3,2,2,2,3,2,2,7,0,3,3,2,1,2,1,2,2,140,2,0,0,0,2,2,74',
];
// Open-data column order with the optional columns a real export carries (row_id, is_multisale, sale_filter_*...).
const SALES = [
  'row_id,pin,year,township_code,nbhd,class,sale_date,is_mydec_date,sale_price,doc_no,deed_type,seller_name,is_multisale,num_parcels_sale,buyer_name,sale_type,sale_filter_same_sale_within_365,sale_filter_less_than_10k,sale_filter_deed_type',
  '1,09363230550000,2018,77,77030,203,2018-04-02T00:00:00.000,false,265000,1809201021,Warranty,"SMITH, JOHN",false,1,DOE JANE,LAND AND BUILDING,false,false,false',
  '2,14321260280000,2019,74,74011,211,2019-11-15T00:00:00.000,true,1200000,1932013044,Trustee,TRUST 1,false,1,"LLC, ONE",LAND AND BUILDING,false,false,false',
];
const UNIVERSE = [
  'pin,pin10,year,class,triad_name,triad_code,township_name,township_code,nbhd_code,tax_code,zip_code,lat,lon,x_3435,y_3435,census_tract_geoid',
  '09363230550000,0936323055,2021,203,North,2,Maine,77,77030,77001,60601-4411,41.85,-87.65,1100000,1900000,',
  '14321260280000,1432126028,2021,211,City,1,Lake View,74,74011,74001,60602,41.85,-87.55,1160000,1920000,17031000200',
];

let fx: Fixture;
beforeAll(() => {
  fx = writeFixture((f) => {
    f['ccao_res_characteristics.csv'] = CHARS;
    f['ccao_parcel_sales.csv'] = SALES;
    f['ccao_parcel_universe.csv'] = UNIVERSE;
    f['lake_gis_sales.csv'] = null;
  });
});
afterAll(() => fx.cleanup());

describe('ingestAll on a real-format CCAO export', () => {
  it('loads and joins it: nearest characteristics year, char_apts units, derived condition, given or located tract', async () => {
    const res = await ingestAll({ dataDir: fx.dataDir });
    expect(res).toMatchObject({ salesRows: 2, parcels: 2 });
    const store = openStore(fx.dataDir);
    try {
      const rows = store.readSalesSnapshot().table.toArray().map((r) => r.toJSON());
      // 2018 sale → the 2016 row (latest year <= 2018); repair 2, no renovation, built 1923 → dated
      expect(rows[0]).toMatchObject({ pin: '09363230550000', price_usd: 265000, sqft: 1200, beds: 3, year_built: 1923, units: 1, ptype: PTYPE_CODE.sfh, condition: CONDITION_CODE.dated, tract_idx: 0 });
      // class 211 with char_apts 2 ("Three") → 3 units; GEOID given by the universe
      expect(rows[1]).toMatchObject({ pin: '14321260280000', units: 3, ptype: PTYPE_CODE.mf2_4, sqft: 2850, beds: 4, tract_idx: 1 });
      expect(store.readParcels().table.getChild('zip')!.get(0)).toBe('60601'); // ZIP+4 cut to 5 digits
    } finally {
      await store.close();
    }
  });
});
