// generateCorpus on the small `test` scale: determinism, file layouts, PIN shapes, dates, rents and listings.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus, GENERATOR_VERSION, type GenerateResult } from '../../../src/ingest/generate/generate.js';
import { ALL_CSV_LAYOUTS, CCAO_PARCEL_UNIVERSE, CCAO_SALES, HUD_SAFMR, LAKE_GIS_SALES, LISTINGS } from '../../../src/ingest/layouts.js';
import { loadZipCentroids } from '../../../src/reference/load.js';
import { digestTree, headerOf, readCsv } from './support.js';

const dirs: string[] = [];
const fresh = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'avm-gen-'));
  dirs.push(d);
  return d;
};
let a: GenerateResult, aDir: string, bDir: string, cDir: string;
const progress: Array<[number, number, string]> = [];

beforeAll(async () => {
  aDir = fresh(); bDir = fresh(); cDir = fresh();
  a = await generateCorpus({ seed: 11, scale: 'test', outDir: aDir, onProgress: (d, t, s) => progress.push([d, t, s]) });
  await generateCorpus({ seed: 11, scale: 'test', outDir: bDir });
  await generateCorpus({ seed: 12, scale: 'test', outDir: cDir });
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('generateCorpus determinism', () => {
  it('writes byte-identical files for the same seed', () => {
    const da = digestTree(aDir), db = digestTree(bDir);
    expect(Object.keys(da).length).toBeGreaterThanOrEqual(11);
    expect(db).toEqual(da);
  });

  it('writes different sales for a different seed', () => {
    const da = digestTree(aDir), dc = digestTree(cDir);
    expect(dc['raw/ccao_parcel_sales.csv']).not.toEqual(da['raw/ccao_parcel_sales.csv']);
    expect(dc['raw/tracts.geojson']).not.toEqual(da['raw/tracts.geojson']);
  });

  it('rejects a bad seed, scale or as-of date with validation_failed', async () => {
    await expect(generateCorpus({ seed: -1, scale: 'test', outDir: fresh() })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(generateCorpus({ seed: 1, scale: 'huge' as 'test', outDir: fresh() })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(generateCorpus({ seed: 1, scale: 'test', outDir: fresh(), asOf: '2026-13-01' })).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

describe('generateCorpus files', () => {
  it('keeps the ground truth outside raw/ and raw/ free of truth columns', () => {
    expect(relative(aDir, a.truthFile)).toBe(join('truth', 'sales_truth.csv'));
    for (const f of readdirSync(join(aDir, 'raw'))) {
      expect(f).not.toMatch(/truth/);
      if (f.endsWith('.csv')) expect(headerOf(join(aDir, 'raw', f))).not.toContain('true_value');
    }
  });

  it('writes every CSV layout with its required columns first, then only known optional ones', () => {
    for (const layout of ALL_CSV_LAYOUTS) {
      const header = headerOf(join(aDir, 'raw', layout.file));
      expect(header.slice(0, layout.required.length)).toEqual([...layout.required]);
      for (const col of header.slice(layout.required.length)) expect(layout.optional).toContain(col);
      expect(header.slice(layout.required.length)).toEqual(layout.optional.filter((c) => header.includes(c)));
    }
    // Like a real export, the exported sales carry no condition (the true one is in truth/ only).
    expect(headerOf(join(aDir, 'raw', CCAO_SALES.file))).not.toContain('sale_condition');
    expect(headerOf(join(aDir, 'raw', 'lake_gis_sales.csv'))).not.toContain('CONDITION');
  });

  it('writes Cook PINs of 14 digits (condo units non-zero) and Lake PINs of 10 digits', () => {
    const uni = readCsv(join(aDir, 'raw', CCAO_PARCEL_UNIVERSE.file));
    expect(uni.every((r) => /^\d{14}$/.test(r.pin))).toBe(true);
    const condos = uni.filter((r) => r.class === '299');
    expect(condos.length).toBeGreaterThan(0);
    expect(condos.every((r) => r.pin.slice(10) !== '0000')).toBe(true);
    expect(uni.filter((r) => r.class !== '299').every((r) => r.pin.slice(10) === '0000')).toBe(true);
    expect(new Set(uni.map((r) => r.pin)).size).toBe(uni.length);
    const lake = readCsv(join(aDir, 'raw', LAKE_GIS_SALES.file));
    expect(lake.length).toBeGreaterThan(0);
    expect(lake.every((r) => /^\d{10}$/.test(r.PIN))).toBe(true);
  });

  it('dates sales YYYY-MM-DD over six years ending at the as-of date 2026-10-31', () => {
    const sales = readCsv(join(aDir, 'raw', CCAO_SALES.file));
    expect(sales.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.sale_date) && r.sale_date > '2020-10-31' && r.sale_date <= '2026-10-31')).toBe(true);
    expect(new Set(sales.map((r) => r.sale_date.slice(0, 4))).size).toBe(7); // Nov-Dec 2020 plus 2021..2026
    expect(new Set(sales.map((r) => r.deed_type))).toEqual(new Set(['Warranty', 'Trustee', 'Quit Claim', 'Executor', 'Other', 'Beneficiary']));
  });

  it('writes a SAFMR row for every Cook and Lake ZIP with rents rising by bedroom count', () => {
    const rows = readCsv(join(aDir, 'raw', HUD_SAFMR.file));
    expect(new Set(rows.map((r) => r['ZIP Code']))).toEqual(new Set(loadZipCentroids().map((z) => z.zip)));
    for (const r of rows) {
      const usd = [0, 1, 2, 3, 4].map((b) => Number(r[`SAFMR ${b}BR`]));
      expect(usd.every((v, i) => i === 0 || v > usd[i - 1])).toBe(true);
    }
  });

  it('writes about 200 active listings with duplicated addresses, 2-4 unit buildings and example urls', () => {
    const rows = readCsv(join(aDir, 'raw', LISTINGS.file));
    expect(rows.length).toBe(200);
    expect(new Set(rows.map((r) => r.listing_id)).size).toBe(200);
    expect(new Set(rows.map((r) => r.address)).size).toBeLessThan(200);
    expect(rows.filter((r) => Number(r.units) >= 2).length).toBeGreaterThan(20);
    expect(rows.every((r) => r.url.startsWith('https://listings.example/') && r.status === 'active')).toBe(true);
    const history = readCsv(join(aDir, 'raw', 'listing_history.csv'));
    expect(new Set(history.map((h) => h.listing_id))).toEqual(new Set(rows.map((r) => r.listing_id)));
  });

  it('prices forced sales (distressed and dated stock only) below their true as-is value, market listings a little over it', () => {
    const price = new Map(readCsv(join(aDir, 'raw', LISTINGS.file)).map((r) => [r.listing_id, Number(r.price)]));
    const truth = readCsv(join(aDir, 'truth', 'listings_truth.csv'));
    const ratio = (rows: typeof truth) => rows.map((t) => (price.get(t.listing_id) as number) / Number(t.true_value)).sort((x, y) => x - y);
    const median = (xs: number[]) => xs[xs.length >> 1];
    const forced = truth.filter((t) => t.sale_type === 'forced');
    const market = truth.filter((t) => t.sale_type === 'market');
    expect(forced.length + market.length).toBe(truth.length);
    expect(forced.length).toBeGreaterThan(0);
    expect(forced.every((t) => t.condition === 'distressed' || t.condition === 'dated')).toBe(true);
    // Forced: exp(mean) of the condition's log discount (0.80 distressed, 0.93 dated), less any price cut; market: exp(0.03).
    expect(median(ratio(forced))).toBeLessThan(0.95);
    expect(median(ratio(market))).toBeGreaterThan(0.98);
  });

  it('reports progress through the long stages and ends with done', () => {
    const stages = new Set(progress.map((p) => p[2]));
    expect([...stages]).toEqual(['tracts', 'parcels', 'sales', 'files', 'done']);
    expect(progress.filter((p) => p[2] === 'sales').length).toBeGreaterThan(1);
    expect(progress.every(([d, t]) => d >= 0 && d <= t)).toBe(true);
    expect(progress.filter((p) => p[0] === p[1]).map((p) => p[2])).toEqual(['tracts', 'parcels', 'sales', 'files', 'done']);
    expect(progress[progress.length - 1]).toEqual([1, 1, 'done']);
  });

  it('reports counts and a synthetic vintage', () => {
    expect(a.vintage).toContain('synthetic');
    expect(a.vintage).toContain(GENERATOR_VERSION);
    expect(a.counts.tracts).toBe(1662); // 802 real Chicago + 700 generated suburban Cook + 160 generated Lake GEOIDs
    expect(a.counts.tracts_chicago_real).toBe(802);
    expect(a.counts.tract_pieces).toBeGreaterThan(a.counts.tracts); // real tracts crossing neighborhood lines
    expect(a.counts.sales).toBe(a.counts.cook_sales + a.counts.lake_sales);
  });
});
