// The comp-source fallback chain on served valuations of the test corpus, against the local fake open-data portal:
// a subject whose corpus stratum is thin is valued from open-data comps (opendata_fallback in its artifact), the
// configuration override reports opendata_forced, a served corpus value never touches the network, and without
// network the chain fails fast and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValuationSchema, type Valuation } from '../../../src/contracts/valuation.js';
import { PTYPE_CODE } from '../../../src/store/columns.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { serveValuation } from '../../../src/valuation/fallback/serve.js';

const servedValuation = async (...a: Parameters<typeof serveValuation>) => (await serveValuation(...a)).valuation;
import { dayOfIso, isoOfDay } from '../../../src/store/days.js';
import { buildValuationContext, type ValuationContext } from '../../../src/valuation/value-context.js';
import { valueProperty, type ValueInput } from '../../../src/valuation/value.js';
import { createEngine } from '../../../src/app/engine.js';
import { smallCorpusDir, testConfig } from '../../support/corpus.js';
import { closedPort, startFakeSoda, type FakeSoda, type Row } from './fake-soda.js';

const AS_OF = '2026-11-02';
const now = () => new Date(`${AS_OF}T12:00:00Z`);
let dataDir: string;
let store: Store;
let ctx: ValuationContext;
let thin: { input: ValueInput; v: Valuation };
let served: { input: ValueInput; v: Valuation };
let soda: FakeSoda;
const FAKE_PINS = ['99000000000001', '99000000000002', '99000000000003', '99000000000004', '99000000000005'];
const FAKE_PRICES = [410_000, 420_000, 430_000, 440_000, 450_000];

/** A Cook sfh parcel with known sqft and beds whose corpus valuation has fewer than 3 comps, and one Tier-1 valued. */
function findSubjects(): void {
  const p = ctx.subjects.parcels!;
  for (let i = 0; i < p.length && (!thin || !served); i += 7) {
    if (p.county[i] !== 1 || p.ptype[i] !== PTYPE_CODE.sfh || !(p.sqft[i] > 0) || p.beds[i] < 0) continue;
    const input: ValueInput = { parcelRow: i, asOf: AS_OF };
    const v = valueProperty(input, ctx);
    if (!thin && v.artifact!.arv_null_reason === 'insufficient_renovated_comps') thin = { input, v };
    if (!served && v.artifact!.arv !== null) served = { input, v };
  }
}

/**
 * Five renovated single-family sales (class 203, char_renovation 1 = renovated), warranty deeds, 0.07–0.35 mi north
 * of the subject, sold 20–100 days before the as-of date, with the subject's own sqft and beds and tract.
 */
function portalRowsAround(v: Valuation): Record<string, Row[]> {
  const s = v.subject;
  const universe: Row[] = [], sales: Row[] = [], chars: Row[] = [];
  FAKE_PINS.forEach((pin, k) => {
    const date = isoOfDay(dayOfIso(AS_OF) - 20 * (k + 1));
    universe.push({ pin, year: date.slice(0, 4), class: '203', lat: (s.lat + 0.001 * (k + 1)).toFixed(6), lon: s.lon.toFixed(6), zip_code: '60601', census_tract_geoid: s.tract_geoid ?? '' });
    sales.push({ pin, year: date.slice(0, 4), class: '203', sale_date: `${date}T00:00:00.000`, sale_price: String(FAKE_PRICES[k]), doc_no: `D${k}`, deed_type: 'Warranty', num_parcels_sale: '1' });
    chars.push({ pin, year: date.slice(0, 4), class: '203', char_yrblt: '1950', char_bldg_sf: String(s.sqft), char_beds: String(s.beds), char_apts: '', char_repair_cnd: '2', char_renovation: '1' });
  });
  return { 'nj4t-kc8j': universe, 'wvhk-k5uv': sales, 'x54s-btds': chars };
}

beforeAll(async () => {
  dataDir = await smallCorpusDir();
  store = openStore(dataDir);
  ctx = buildValuationContext(store, { now });
  findSubjects();
  soda = await startFakeSoda(portalRowsAround(thin.v));
}, 300_000);

afterAll(async () => {
  await soda?.close();
  await store?.close();
});

const chainOf = (v: Valuation) => v.artifact!.fallback_chain.map((a) => [a.source, a.served]);

describe('serveValuation: the comp-source chain in a served valuation', () => {
  it('a thin corpus stratum falls back to open-data comps, which value the subject', async () => {
    const v = await servedValuation(thin.input, ctx, { opendataBaseUrl: soda.baseUrl, forceOpendata: false });
    expect(ValuationSchema.safeParse(v).success).toBe(true);
    expect(chainOf(v)).toEqual([['corpus', false], ['opendata_fallback', true]]);
    expect(v.artifact!.fallback_chain[1].note).toContain('5 open-data sales');
    expect(v.artifact!.arv).not.toBeNull();
    expect(v.artifact!.arv!.method).toBe('renovated_comps');
    // every comp is a portal sale; the value lies inside their (time-adjusted) price span
    expect(v.artifact!.comps_used.length).toBe(v.artifact!.arv!.n_comps);
    for (const c of v.artifact!.comps_used) expect(FAKE_PINS).toContain((c as { pin: string }).pin);
    expect(v.artifact!.arv!.value).toBeGreaterThan(0.9 * FAKE_PRICES[0]);
    expect(v.artifact!.arv!.value).toBeLessThan(1.1 * FAKE_PRICES[4]);
    expect(v.inputs_hash).not.toBe(thin.v.inputs_hash);
  });

  it('the inputs hash covers a rejected open-data sale: its row is named with the digest of the fetched sales', async () => {
    // The portal's five comps plus a sixth sale three times the subject's size (off the GLA band, so rejected). Its
    // price shows only in the rejection's record, which the hash names by row: the fetched sales' digest in the
    // provenance is what makes two portals that differ in that price hash apart.
    const s = thin.v.subject;
    const withBig = (price: number): Record<string, Row[]> => {
      const rows = portalRowsAround(thin.v);
      const date = isoOfDay(dayOfIso(AS_OF) - 30);
      const pin = '99000000000006';
      rows['nj4t-kc8j'].push({ pin, year: date.slice(0, 4), class: '203', lat: (s.lat - 0.002).toFixed(6), lon: s.lon.toFixed(6), zip_code: '60601', census_tract_geoid: s.tract_geoid ?? '' });
      rows['wvhk-k5uv'].push({ pin, year: date.slice(0, 4), class: '203', sale_date: `${date}T00:00:00.000`, sale_price: String(price), doc_no: 'D6', deed_type: 'Warranty', num_parcels_sale: '1' });
      rows['x54s-btds'].push({ pin, year: date.slice(0, 4), class: '203', char_yrblt: '1950', char_bldg_sf: String(3 * (s.sqft ?? 1000)), char_beds: String(s.beds), char_apts: '', char_repair_cnd: '2', char_renovation: '1' });
      return rows;
    };
    const valued = async (price: number) => {
      const portal = await startFakeSoda(withBig(price));
      try {
        return await servedValuation(thin.input, ctx, { opendataBaseUrl: portal.baseUrl, forceOpendata: false });
      } finally {
        await portal.close();
      }
    };
    const [a, again, b] = [await valued(900_000), await valued(900_000), await valued(950_000)];
    const big = (v: Valuation) => v.artifact!.comps_rejected.find((r) => (r as { pin: string }).pin === '99000000000006') as { reason: string; price: number } | undefined;
    expect(big(a)).toMatchObject({ reason: 'gla_band', price: 900_000 });
    expect(big(b)).toMatchObject({ reason: 'gla_band', price: 950_000 });
    expect(b.artifact!.comps_used).toEqual(a.artifact!.comps_used);
    expect(again.inputs_hash).toBe(a.inputs_hash);
    expect(b.inputs_hash).not.toBe(a.inputs_hash);
  });

  it('the configuration override skips the corpus and reports opendata_forced', async () => {
    const v = await servedValuation(thin.input, ctx, { opendataBaseUrl: soda.baseUrl, forceOpendata: true });
    expect(chainOf(v)).toEqual([['corpus', false], ['opendata_forced', true]]);
    expect(v.artifact!.fallback_chain[0].note).toMatch(/forced/);
    expect(v.artifact!.arv).not.toBeNull();
  });

  it('forced for a subject the portal has no sales around: no Tier-1 value, the chain ends with none', async () => {
    const far = await startFakeSoda({ 'nj4t-kc8j': [], 'wvhk-k5uv': [], 'x54s-btds': [] });
    try {
      const v = await servedValuation(served.input, ctx, { opendataBaseUrl: far.baseUrl, forceOpendata: true });
      expect(chainOf(v)).toEqual([['corpus', false], ['opendata_forced', false], ['none', false]]);
      expect(v.artifact!.arv).toBeNull(); // the skipped corpus's value is not served under a chain that skipped it
      expect(ValuationSchema.safeParse(v).success).toBe(true);
    } finally {
      await far.close();
    }
  });

  it('a corpus that serves is not second-guessed: no portal request', async () => {
    const before = soda.requests.length;
    const v = await servedValuation(served.input, ctx, { opendataBaseUrl: soda.baseUrl, forceOpendata: false });
    expect(chainOf(v)).toEqual([['corpus', true]]);
    expect(v.inputs_hash).toBe(served.v.inputs_hash);
    expect(soda.requests.length).toBe(before);
  });

  it('without network the open-data attempt fails fast, the chain says so and the corpus answer is served', async () => {
    const port = await closedPort();
    const v = await servedValuation(thin.input, ctx, { opendataBaseUrl: `http://127.0.0.1:${port}/resource`, forceOpendata: false });
    expect(chainOf(v)).toEqual([['corpus', false], ['opendata_fallback', false], ['none', false]]);
    expect(v.artifact!.fallback_chain[1].note).toMatch(/unreachable \(ECONNREFUSED\); failed fast/);
    expect(v.artifact!.arv).toBeNull();
    expect(v.arv.suppression_reason ?? v.artifact!.arv_null_reason).toBe('insufficient_renovated_comps');
  });

  it('forced without network: the chain records the failure and no comp source values the subject', async () => {
    const port = await closedPort();
    const v = await servedValuation(served.input, ctx, { opendataBaseUrl: `http://127.0.0.1:${port}/resource`, forceOpendata: true });
    expect(chainOf(v)).toEqual([['corpus', false], ['opendata_forced', false], ['none', false]]);
    expect(v.artifact!.arv).toBeNull();
    expect(ValuationSchema.safeParse(v).success).toBe(true);
  });
});

// Through the valuation service's worker pool (the compiled `value` task: `npm run build` first, as value-service.test).
describe('the valuation service runs the chain for a served request', () => {
  it('reports opendata_forced from the worker when the configuration forces it', async () => {
    const service = createEngine(testConfig(dataDir, { AVM_WORKERS: '1', AVM_OPENDATA_BASE_URL: soda.baseUrl, AVM_FORCE_OPENDATA: 'true' }), store);
    try {
      const v = await service.value(thin.input);
      expect(chainOf(v)).toEqual([['corpus', false], ['opendata_forced', true]]);
      expect(v.artifact!.comps_used.every((c) => FAKE_PINS.includes((c as { pin: string }).pin))).toBe(true);
    } finally {
      await service.close();
    }
  }, 120_000);
});
