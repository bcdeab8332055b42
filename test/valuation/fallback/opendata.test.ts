import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { CONDITION_CODE, DEED_CODE, PTYPE_CODE, SALES_COLUMNS, TRACT_NONE } from '../../../src/store/columns.js';
import { fetchOpendataComps, opendataSalesIpc } from '../../../src/valuation/fallback/opendata.js';
import { sodaUrl, salesQuery } from '../../../src/valuation/fallback/soda.js';
import { dayOfIso } from '../../../src/store/days.js';
import { startFakeSoda, type FakeSoda } from './fake-soda.js';
import { AS_OF_ISO, DATA, P1, P2, P4, SUBJECT } from './fixture.js';

describe('sodaUrl', () => {
  it('speaks the SODA query style against the configured base', () => {
    const url = new URL(sodaUrl('https://datacatalog.cookcountyil.gov/resource/', 'wvhk-k5uv', salesQuery([P1], 19_540, 19_905)));
    expect(url.pathname).toBe('/resource/wvhk-k5uv.json');
    // day 19,540 = 2023-07-02, day 19,905 = 2024-07-01
    expect(url.searchParams.get('$where')).toBe(`pin in('${P1}') AND sale_date >= '2023-07-02T00:00:00.000' AND sale_date < '2024-07-01T00:00:00.000'`);
    expect(url.searchParams.get('$order')).toBe('sale_date DESC');
    expect(url.searchParams.get('$limit')).toBe('5000');
  });
  it('refuses anything but a 14-digit PIN in a where clause', () => {
    expect(() => salesQuery(["1' OR '1'='1"], 0, 1)).toThrow(/14-digit/);
  });
});

describe('fetchOpendataComps', () => {
  let soda: FakeSoda;
  beforeAll(async () => { soda = await startFakeSoda(DATA); });
  afterAll(async () => { await soda.close(); });

  it('normalizes universe + sales + characteristics into snapshot columns', async () => {
    const r = await fetchOpendataComps({ ...SUBJECT, asOfDay: dayOfIso(AS_OF_ISO) }, { opendataBaseUrl: soda.baseUrl, tracts: ['17031000100'] });
    // universe box keeps P1, P2, P4, P5, P6; the 1-mile circle drops P6 (1.34 mi); P3 is outside the box
    expect(r.parcelsInRadius).toBe(4);
    expect(r.requests).toBe(3);
    // sales in window, newest first: P1 2024-03-01, P2 2024-02-01, P5 (commercial, dropped), P4 2023-09-01
    expect(r.dropped).toEqual({ class_not_1_4_residential: 1 });
    const c = r.columns;
    expect(c.length).toBe(3);
    expect([0, 1, 2].map((i) => c.pin(i))).toEqual([P1, P2, P4]);
    expect(Array.from(c.priceUsd)).toEqual([350_000, 500_000, 300_000]);
    expect(Array.from(c.saleDay)).toEqual([dayOfIso('2024-03-01'), dayOfIso('2024-02-01'), dayOfIso('2023-09-01')]);
    expect(Array.from(c.ptype)).toEqual([PTYPE_CODE.sfh, PTYPE_CODE.mf2_4, PTYPE_CODE.sfh]);
    expect(Array.from(c.units)).toEqual([1, 2, 1]); // char_apts 1 = two units
    expect(Array.from(c.sqft.slice(0, 2))).toEqual([1500, 2400]);
    expect(Number.isNaN(c.sqft[2])).toBe(true);
    expect(Array.from(c.condition)).toEqual([CONDITION_CODE.renovated, CONDITION_CODE.dated, CONDITION_CODE.unknown]);
    expect(Array.from(c.deedType)).toEqual([DEED_CODE.warranty, DEED_CODE.trustee, DEED_CODE.quitclaim]);
    expect(Array.from(c.tractIdx)).toEqual([0, TRACT_NONE, 0]);
    expect(r.fieldsMissing).toEqual(['beds', 'condition', 'sqft', 'tract', 'year_built']);
  });

  it('sent bounded, parsable SODA queries to each dataset', () => {
    expect(soda.requests.map((q) => q.dataset)).toEqual(['nj4t-kc8j', 'wvhk-k5uv', 'x54s-btds']);
    expect(soda.requests[0].params.$where).toMatch(/^lat between 41\.83\d+ and 41\.86\d+ AND lon between -87\.66\d+ and -87\.63\d+$/);
    expect(soda.requests[2].params.$where).toBe(`pin in('${P1}','${P2}','${P4}')`); // only PINs that sold in the window
  });

  it('encodes the comps as an Arrow snapshot with exactly the store columns', async () => {
    const r = await fetchOpendataComps({ ...SUBJECT, asOfDay: dayOfIso(AS_OF_ISO) }, { opendataBaseUrl: soda.baseUrl });
    const t = tableFromIPC(opendataSalesIpc(r.columns));
    expect(t.schema.fields.map((f) => f.name)).toEqual(Object.values(SALES_COLUMNS));
    expect(t.numRows).toBe(3);
    expect(String(t.getChild('pin')!.get(1))).toBe(P2);
  });
});
