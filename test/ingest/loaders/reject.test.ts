import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestAll } from '../../../src/ingest/ingest.js';
import { isAppError } from '../../../src/errors/app-error.js';
import { hasCorpus, openStore } from '../../../src/store/store.js';
import { FILES, TRACTS, setField, tractsGeojson, writeFixture, type Fixture } from './fixture-corpus.js';

let fx: Fixture | null = null;
afterEach(() => fx?.cleanup());

/** Ingests a corpus edited by `edit`; returns the thrown error (the test fails if nothing is thrown). */
async function rejectWith(edit: (files: Record<string, string[] | null>) => void): Promise<{ message: string; code: string; details: unknown }> {
  fx = writeFixture(edit);
  const err = await ingestAll({ dataDir: fx.dataDir }).then(() => null, (e: unknown) => e);
  expect(isAppError(err)).toBe(true);
  return err as { message: string; code: string; details: unknown };
}

describe('loaders reject a malformed file naming file, row and column', () => {
  it('missing required column in the header', async () => {
    const e = await rejectWith((f) => { f['ccao_parcel_sales.csv']![0] = f['ccao_parcel_sales.csv']![0].replace('sale_price', 'price'); });
    expect(e.code).toBe('ingest_invalid_file');
    expect(e.message).toBe('ccao_parcel_sales.csv: header (line 1), column "sale_price": required column is missing from the header');
  });

  it('bad number', async () => {
    const e = await rejectWith((f) => setField(f['ccao_parcel_sales.csv']!, 2, 'sale_price', '30O000'));
    expect(e.message).toBe('ccao_parcel_sales.csv: row 2 (line 3), column "sale_price": not a number: "30O000"');
    expect(e.details).toMatchObject({ file: 'ccao_parcel_sales.csv', row: 2, line: 3, column: 'sale_price' });
  });

  it('bad date', async () => {
    const e = await rejectWith((f) => setField(f['ccao_parcel_sales.csv']!, 3, 'sale_date', '2020-02-30'));
    expect(e.message).toBe('ccao_parcel_sales.csv: row 3 (line 4), column "sale_date": not a calendar date: "2020-02-30"');
  });

  it('unparseable date', async () => {
    const e = await rejectWith((f) => setField(f['ccao_parcel_sales.csv']!, 1, 'sale_date', 'June 26'));
    expect(e.message).toMatch(/^ccao_parcel_sales\.csv: row 1 \(line 2\), column "sale_date": not a date/);
  });

  it('bad Cook PIN (13 digits)', async () => {
    const e = await rejectWith((f) => setField(f['ccao_res_characteristics.csv']!, 4, 'pin', '1701101003000'));
    expect(e.message).toBe('ccao_res_characteristics.csv: row 4 (line 5), column "pin": not a 14-digit Cook PIN: "1701101003000"');
  });

  it('bad Lake PIN', async () => {
    const e = await rejectWith((f) => { f['lake_gis_sales.csv']![2] = f['lake_gis_sales.csv']![2].replace('1522301009', '15223X1009'); });
    expect(e.message).toBe('lake_gis_sales.csv: row 2 (line 3), column "PIN": not a 10-digit Lake PIN: "15223X1009"');
  });

  it('bad latitude (outside Illinois) on a row that would otherwise be skipped', async () => {
    const e = await rejectWith((f) => setField(f['ccao_parcel_universe.csv']!, 5, 'lat', '0'));
    expect(e.message).toBe('ccao_parcel_universe.csv: row 5 (line 6), column "lat": latitude outside Illinois [36.97, 42.51]: "0"');
  });

  it('bad tract GEOID in the parcel universe', async () => {
    const e = await rejectWith((f) => {
      const u = f['ccao_parcel_universe.csv']!;
      u.forEach((line, i) => (u[i] = `${line},${i === 0 ? 'census_tract_geoid' : i === 2 ? '1703100010' : '17031000100'}`));
    });
    expect(e.message).toBe('ccao_parcel_universe.csv: row 2 (line 3), column "census_tract_geoid": not an 11-digit census tract GEOID: "1703100010"');
  });

  it('bad GEOID in tracts.geojson names the feature', async () => {
    fx = writeFixture();
    writeFileSync(join(fx.rawDir, 'tracts.geojson'), tractsGeojson([TRACTS[0], { ...TRACTS[1], GEOID: '170310001' }, TRACTS[2]]));
    await expect(ingestAll({ dataDir: fx.dataDir })).rejects.toThrow('tracts.geojson: row 2, column "GEOID": not an 11-digit census tract GEOID: "170310001"');
  });

  it('a ragged row names the first missing column', async () => {
    const e = await rejectWith((f) => { f['hud_safmr.csv']![1] = '60601,METRO,"x",1500,1700'; });
    expect(e.message).toBe('hud_safmr.csv: row 1 (line 2), column "SAFMR 2BR": expected 8 fields, found 5');
  });

  it('unknown deed type text', async () => {
    const e = await rejectWith((f) => setField(f['ccao_parcel_sales.csv']!, 1, 'deed_type', 'Sheriff'));
    expect(e.message).toMatch(/^ccao_parcel_sales\.csv: row 1 \(line 2\), column "deed_type": unknown deed type/);
  });

  it('an empty file', async () => {
    const e = await rejectWith((f) => { f['ccao_res_characteristics.csv'] = ['']; });
    expect(e.message).toBe('ccao_res_characteristics.csv: file: file is empty (no header row)');
  });

  it('an unterminated quote names the row and line it starts on', async () => {
    const e = await rejectWith((f) => { f['listings.csv']!.push('L3,"3 Open St,60601,1,u,41.85,-87.65,2024-01-01,active,,1'); });
    expect(e.message).toBe('listings.csv: row 3 (line 4): unterminated quoted field');
  });

  it('a missing required file', async () => {
    const e = await rejectWith((f) => { f['ccao_parcel_universe.csv'] = null; });
    expect(e.message).toMatch(/^ccao_parcel_universe\.csv: required file is missing/);
  });
});

describe('a failed ingest stores nothing', () => {
  it('leaves an empty data dir without a corpus', async () => {
    await rejectWith((f) => setField(f['ccao_parcel_sales.csv']!, 7, 'pin', 'x'));
    expect(hasCorpus(fx!.dataDir)).toBe(false);
  });

  it('leaves the previous snapshot, tracts and listings exactly as they were', async () => {
    fx = writeFixture();
    const first = await ingestAll({ dataDir: fx.dataDir });
    const lines = [...FILES['ccao_parcel_sales.csv'], '17011010010000,2022,76,100,203,2022-01-01,1e5,D9,Warranty,1'];
    lines.push('17011010010000,2022,76,100,203,2022-13-01,1e5,D9,Warranty,1'); // row 9: bad month
    writeFileSync(join(fx.rawDir, 'ccao_parcel_sales.csv'), lines.join('\n'));
    writeFileSync(join(fx.rawDir, 'listings.csv'), 'listing_id,address,zip,price,url,lat,lon,list_date,status\nL9,9 New St,60601,1,u,41.85,-87.65,2024-01-01,active\n');
    await expect(ingestAll({ dataDir: fx.dataDir })).rejects.toThrow('ccao_parcel_sales.csv: row 9 (line 10), column "sale_date": not a calendar date: "2022-13-01"');
    const store = openStore(fx.dataDir);
    try {
      expect(store.currentSnapshotId()).toBe(first.snapshotId);
      expect(store.listSnapshots().map((s) => s.id)).toEqual([first.snapshotId]);
      expect(store.getListings().map((l) => l.listing_id)).toEqual(['L1', 'L2']);
      expect(store.getTracts()).toHaveLength(3);
    } finally {
      await store.close();
    }
  });
});
