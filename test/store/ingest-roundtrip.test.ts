import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'apache-arrow';
import { ingestAll, type IngestResult } from '../../src/ingest/ingest.js';
import { openStore, hasCorpus, type Store } from '../../src/store/store.js';
import { CONDITION_CODE, COUNTY_CODE, DEED_CODE, PTYPE_CODE, SALES_COLUMNS, TRACT_NONE } from '../../src/store/columns.js';
import { writeFixture, type Fixture } from '../ingest/loaders/fixture-corpus.js';

const dayOf = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / 86_400_000;

let fx: Fixture;
let result: IngestResult;
let store: Store;

beforeAll(async () => {
  fx = writeFixture();
  result = await ingestAll({ dataDir: fx.dataDir, now: new Date('2026-01-01T00:00:00Z') });
  store = openStore(fx.dataDir);
});
afterAll(async () => {
  await store.close();
  fx.cleanup();
});

describe('ingestAll({dataDir}) on the fixture corpus', () => {
  it('counts rows read, kept and skipped per file', () => {
    const byFile = Object.fromEntries(result.files.map((f) => [f.file, f]));
    expect(byFile['ccao_parcel_sales.csv']).toMatchObject({ rowsRead: 7, rowsKept: 5, rowsSkipped: 2, skipped: { class_not_1_4_unit_residential: 1, over_4_units: 1 } });
    expect(byFile['lake_gis_sales.csv']).toMatchObject({ rowsRead: 3, rowsKept: 2, skipped: { class_not_1_4_unit_residential: 1 } });
    expect(byFile['tracts.geojson']).toMatchObject({ rowsRead: 3, rowsKept: 3 });
    // universe: commercial 517 is not a parcel (no count); the five-unit 211 is left out of the parcel table
    expect(byFile['ccao_parcel_universe.csv']).toMatchObject({ rowsRead: 7, rowsKept: 7, parcelsSkipped: { over_4_units: 1 } });
    expect(result).toMatchObject({ salesRows: 7, parcels: 6, tracts: 3, listings: 2, unchanged: false });
    expect(result.snapshotId).toMatch(/^s-000001-[0-9a-f]{12}$/);
  });

  it('stores a snapshot with exactly the contract columns and Arrow types', () => {
    const { table, tracts, id } = store.readSalesSnapshot();
    expect(id).toBe(result.snapshotId);
    const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, `${Type[f.type.typeId]}${'bitWidth' in f.type ? (f.type as { bitWidth: number }).bitWidth : ''}${'isSigned' in f.type ? ((f.type as { isSigned: boolean }).isSigned ? 's' : 'u') : ''}`]));
    expect(Object.keys(types)).toEqual(Object.values(SALES_COLUMNS));
    expect(types).toEqual({
      pin: 'Utf8', parcel_idx: 'Int32u', county: 'Int8u', lat: 'Float', lon: 'Float', sale_day: 'Int32s', date_known: 'Int8u', price_usd: 'Float',
      sqft: 'Float', beds: 'Int8s', year_built: 'Int16s', units: 'Int8u', ptype: 'Int8u', condition: 'Int8u', deed_type: 'Int8u', num_parcels: 'Int16u', tract_idx: 'Int16u',
      condition_prob: 'Float', condition_source: 'Int8u',
    });
    expect(table.getChild('condition_prob')!.type.precision).toBe(1); // SINGLE
    for (const name of ['lat', 'lon', 'price_usd', 'sqft']) expect(table.getChild(name)!.type.precision).toBe(2); // DOUBLE
    expect(tracts).toEqual(['17031000100', '17031000200', '17097860100']);
  });

  it('joins sales to parcels, characteristics of the sale year and tracts (rows in parcel, date order)', () => {
    const rows = store.readSalesSnapshot().table.toArray().map((r) => r.toJSON());
    const pick = (r: Record<string, unknown>): unknown[] => [r.pin, r.parcel_idx, r.sale_day, r.price_usd, r.sqft, r.beds, r.year_built, r.units, r.ptype, r.condition, r.deed_type, r.num_parcels, r.tract_idx, r.county, r.date_known];
    expect(rows.map(pick)).toEqual([
      // 2019 sale takes the 2018 characteristics (repair 3 → distressed); lat/lon from the universe's latest year
      ['17011010010000', 0, dayOf(2019, 6, 26), 250000, 1200, 3, 1950, 1, PTYPE_CODE.sfh, CONDITION_CODE.distressed, DEED_CODE.warranty, 1, 0, COUNTY_CODE.cook, 1],
      // 2021 sale takes the 2020 row (renovation 1 → renovated)
      ['17011010010000', 0, dayOf(2021, 3, 1), 300000, 1250, 3, 1950, 1, PTYPE_CODE.sfh, CONDITION_CODE.renovated, DEED_CODE.quitclaim, 1, 0, COUNTY_CODE.cook, 1],
      // only a later (2021) row exists; char_apts 2 → 3 units; repair 2 → dated
      ['17011010020000', 1, dayOf(2020, 1, 15), 420000, 2400, 5, 1925, 3, PTYPE_CODE.mf2_4, CONDITION_CODE.dated, DEED_CODE.trustee, 1, 1, COUNTY_CODE.cook, 1],
      // built 2019, sold 2020 → new; located north of every tract
      ['17011010030001', 2, dayOf(2020, 5, 5), 180000, 900, 2, 2019, 1, PTYPE_CODE.condo, CONDITION_CODE.new, DEED_CODE.trustee, 1, TRACT_NONE, COUNTY_CODE.cook, 1],
      // no characteristics → unknown facts
      ['17011010060000', 3, dayOf(2020, 8, 8), 5000, NaN, -1, -1, 1, PTYPE_CODE.sfh, CONDITION_CODE.unknown, DEED_CODE.other, 3, 0, COUNTY_CODE.cook, 1],
      ['1522301008', 4, dayOf(2020, 2, 2), 310000, 1800, 3, 1960, 1, PTYPE_CODE.sfh, CONDITION_CODE.renovated, DEED_CODE.warranty, 1, 2, COUNTY_CODE.lake, 1],
      // year-only date → July 1, date_known 0; built 1915 with no CONDITION → unknown
      ['1522301009', 5, dayOf(2020, 7, 1), 150000, 2600, 6, 1915, 2, PTYPE_CODE.mf2_4, CONDITION_CODE.unknown, DEED_CODE.executor, 1, 2, COUNTY_CODE.lake, 0],
    ]);
    expect(rows[0].lat).toBe(41.86);
    expect(rows[0].lon).toBe(-87.66);
  });

  it('stores the parcel table, row i = parcel_idx i', () => {
    const p = store.readParcels();
    expect(p.id).toBe(result.snapshotId);
    const rows = p.table.toArray().map((r) => r.toJSON());
    expect(rows.map((r) => [r.pin, r.zip, r.class, r.tract_idx, r.units, r.address])).toEqual([
      ['17011010010000', '60601', '203', 0, 1, null],
      ['17011010020000', '60602', '211', 1, 3, null],
      ['17011010030001', '60603', '299', TRACT_NONE, 1, null],
      ['17011010060000', '60601', '203', 0, 1, null],
      ['1522301008', '60085', 'Single Family', 2, 1, '12 Main St, Waukegan'],
      ['1522301009', '60085', '2-4 Unit', 2, 2, '14 Main St'],
    ]);
    // latest characteristics (2020 row) → renovated
    expect(rows[0].condition).toBe(CONDITION_CODE.renovated);
  });

  it('stores tracts, listings with history, SAFMR and the ingest record', () => {
    expect(store.getTracts().map((t) => [t.geoid, t.county, t.muni, t.bbox])).toEqual([
      ['17031000100', 'cook', 'Chicago', [-87.7, 41.8, -87.6, 41.9]],
      ['17031000200', 'cook', 'Chicago', [-87.6, 41.8, -87.5, 41.9]],
      ['17097860100', 'lake', 'Waukegan', [-87.9, 42.3, -87.8, 42.4]],
    ]);
    const l1 = store.getListings().find((l) => l.listing_id === 'L1')!;
    expect(l1).toMatchObject({ pin: '17011010010000', county: 'cook', price_usd: 275000, status: 'active', units: 1 });
    expect(l1.history.map((h) => [h.event_date, h.event, h.price_usd])).toEqual([['2024-05-01', 'listed', 275000], ['2024-05-10', 'price_change', 265000]]);
    const safmr = store.getReference<{ rows: Record<string, { rent_by_beds_usd: number[] }> }>('safmr')!;
    expect(safmr.rows['60601'].rent_by_beds_usd).toEqual([1500, 1700, 2000, 2500, 2900]); // "$1,500" parsed as money
    expect(store.getMeta<{ at: string; snapshot_id: string }>('ingest:last')).toMatchObject({ at: '2026-01-01T00:00:00.000Z', snapshot_id: result.snapshotId });
    expect(store.corpusVintage()).toBe('synthetic test');
    expect(store.tractList().count).toBe(3);
    expect(store.listingsSummary('m1')).toEqual({ active: 1, staleModelRows: 0 });
    expect(store.checkSnapshot().ok).toBe(true);
    expect(hasCorpus(fx.dataDir)).toBe(true);
  });
});
