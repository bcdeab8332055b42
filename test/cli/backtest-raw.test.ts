// `avm backtest --raw DIR --data-dir OUT` through the compiled CLI on the 50 real CCAO model-input rows
// (test/fixtures/ccao-api-res-avm, origin in data/SOURCES.md) written into the three real layouts, plus the one-line
// errors for a missing folder, a missing file and a bad layout.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../src/config.js';
import { RAW_BACKTEST_FILES, type RawBacktestReport } from '../../src/valuation/calibration/raw-backtest.js';
import { smallCorpusDir } from '../support/corpus.js';
import { linesOf, runCli } from '../support/cli.js';

const FIXTURE = join(ROOT_DIR, 'test', 'fixtures', 'ccao-api-res-avm', 'model-input-rows.csv');
const tmp = mkdtempSync(join(tmpdir(), 'avm-backtest-raw-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Fixture = Record<string, string>;

/** The fixture rows (plain CSV: no field of it holds a comma or a quote). */
function fixtureRows(): Fixture[] {
  const [head, ...lines] = readFileSync(FIXTURE, 'utf8').trim().split('\n');
  const cols = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

/**
 * The three layouts from the model-input rows. sample.csv's PINs were mangled to "1.01E+12" by a spreadsheet before
 * they reached the source repo, so its 10 rows get stand-in PINs in their township's PIN area (01). The rows carry no
 * deed type: CCAO's model input keeps the sales it judged arms-length, so they are written as Warranty. The number of
 * parcels of a sale is the number of rows sharing its document number.
 */
function writeRawFolder(dir: string, rows: Fixture[]): void {
  mkdirSync(dir, { recursive: true });
  const pins = rows.map((r, k) => (r.source_file === 'sample.csv' ? `010100000${String(k).padStart(2, '0')}000` : r.meta_pin));
  const perDoc = new Map<string, number>();
  for (const r of rows) if (r.meta_document_num) perDoc.set(r.meta_document_num, (perDoc.get(r.meta_document_num) ?? 0) + 1);
  const csv = (head: string[], body: string[][]) => `${head.join(',')}\n${body.map((b) => b.join(',')).join('\n')}\n`;
  writeFileSync(join(dir, 'ccao_parcel_universe.csv'), csv(['pin', 'year', 'class', 'township_code', 'nbhd_code', 'lat', 'lon', 'zip_code'],
    rows.map((r, k) => [pins[k], r.meta_year, r.meta_class, r.meta_town_code, r.meta_nbhd, r.geo_latitude, r.geo_longitude, r.geo_property_zip.slice(0, 5)])));
  writeFileSync(join(dir, 'ccao_res_characteristics.csv'), csv(['pin', 'year', 'class', 'township_code', 'char_yrblt', 'char_bldg_sf', 'char_beds', 'char_apts', 'char_repair_cnd', 'char_renovation'],
    rows.map((r, k) => [pins[k], r.meta_year, r.meta_class, r.meta_town_code, String(Number(r.meta_year) - Number(r.char_age)), r.char_bldg_sf, r.char_beds, r.char_apts, r.char_repair_cnd, r.char_renovation])));
  const sold = rows.map((r, k) => ({ r, pin: pins[k] })).filter(({ r }) => r.meta_sale_price !== '');
  writeFileSync(join(dir, 'ccao_parcel_sales.csv'), csv(['pin', 'year', 'township_code', 'nbhd', 'class', 'sale_date', 'sale_price', 'doc_no', 'deed_type', 'num_parcels_sale'],
    sold.map(({ r, pin }) => [pin, r.meta_year, r.meta_town_code, r.meta_nbhd, r.meta_class, r.meta_sale_date, r.meta_sale_price, r.meta_document_num, 'Warranty', String(perDoc.get(r.meta_document_num))])));
}

const ROW_FIELDS = ['kind', 'group', 'n', 'valued', 'refused', 'mdape', 'ppe10', 'ppe20', 'cod', 'prd', 'prb', 'nCoverage', 'coverage80', 'meanWidth80', 'nOutcome', 'pointShare', 'rangeShare', 'suppressedShare'];
const BASELINE_FIELDS = ['name', 'group', 'n', 'mdape', 'cod', 'ppe10', 'kind', 'refused', 'ppe20'];

describe('avm backtest --raw on the 50 real CCAO model-input rows', () => {
  let report: RawBacktestReport;
  const rows = fixtureRows();

  beforeAll(async () => {
    writeRawFolder(join(tmp, 'real'), rows);
    const run = await runCli(['backtest', '--raw', join(tmp, 'real'), '--data-dir', join(tmp, 'out'), '--report', join(tmp, 'report.json')]);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.code).toBe(0);
    report = JSON.parse(readFileSync(join(tmp, 'report.json'), 'utf8')) as RawBacktestReport;
  }, 120_000);

  it('the fixture is the 50 rows: 10 from sample.csv and 40 from samples.parquet, 17 of them sold', () => {
    expect(rows.filter((r) => r.source_file === 'sample.csv')).toHaveLength(10);
    expect(rows.filter((r) => r.source_file === 'samples.parquet')).toHaveLength(40);
    expect(rows.filter((r) => r.meta_sale_price !== '')).toHaveLength(17);
  });

  it('writes every field per kind and segment, overall, and the naive baseline; no oracle without truth', () => {
    expect(report.name).toBe('raw_backtest');
    expect(report.kindSource).toBe('snapshot_condition');
    expect(report.segmentSource).toBe('cook_township_triad');
    for (const r of report.rows) expect(Object.keys(r).sort()).toEqual([...ROW_FIELDS].sort());
    for (const kind of ['arv', 'as_is', 'overall']) expect(report.rows.some((r) => r.kind === kind && r.group === 'all')).toBe(true);
    for (const b of report.baselines) expect(Object.keys(b).sort()).toEqual([...BASELINE_FIELDS].sort());
    expect(report.baselines.every((b) => b.name === 'naive')).toBe(true);
    expect(report.nulls.some((x) => x.startsWith('oracle'))).toBe(true);
  });

  it('counts add up: every arms-length sale is scored, n = valued + refused, refused ones in the shares', () => {
    // 17 sales: sample.csv's 10 rows are 3 deeds of 5, 1 and 4 parcels — only the 1-parcel deed (doc 2031233187) is
    // arms-length; samples.parquet's 7 are single-parcel, but 15154010440000 is a class-211 building with char_apts 4
    // (five units), outside the 1-4 unit scope and never ingested. 1 + 6 = 7 sales, spread over Cook.
    const overall = report.rows.find((r) => r.kind === 'overall' && r.group === 'all')!;
    expect(overall.n).toBe(7);
    const arv = report.rows.find((r) => r.kind === 'arv' && r.group === 'all')!;
    const asIs = report.rows.find((r) => r.kind === 'as_is' && r.group === 'all')!;
    expect(arv.n + asIs.n).toBe(overall.n);
    for (const r of report.rows) {
      expect(r.n).toBe(r.valued + r.refused);
      if (r.nOutcome > 0) expect(r.pointShare! + r.rangeShare! + r.suppressedShare!).toBeCloseTo(1, 12);
      if (r.valued === 0) expect([r.mdape, r.cod, r.coverage80]).toEqual([null, null, null]);
    }
    expect(overall.refused).toBe(overall.n - overall.valued);
    // Too few comps anywhere in these 7 to value one: all refused, and they are the shares' denominator (the test half,
    // from the median sale day on), every one of them suppressed — not dropped.
    expect(overall.valued).toBe(0);
    expect(overall.nOutcome).toBeGreaterThan(0);
    expect(overall.suppressedShare).toBe(1);
    const naive = report.baselines.find((b) => b.kind === 'overall' && b.group === 'all')!;
    expect(naive.n + naive.refused).toBe(overall.n);
  });
});

describe('avm backtest --raw on a generated export of the three files alone', () => {
  it('values sales, calibrates on the earlier half and measures coverage on the later, beside the naive estimator', async () => {
    const raw = join(tmp, 'export');
    mkdirSync(raw, { recursive: true });
    for (const f of RAW_BACKTEST_FILES) copyFileSync(join(await smallCorpusDir(), 'raw', f), join(raw, f));
    const run = await runCli(['backtest', '--raw', raw, '--data-dir', join(tmp, 'export-out')], {}, 120_000);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout) as RawBacktestReport;
    const overall = r.rows.find((x) => x.kind === 'overall' && x.group === 'all')!;
    expect(overall.valued).toBeGreaterThan(100);
    expect(overall.n).toBe(overall.valued + overall.refused);
    expect(r.window.start).toBeNull(); // the whole history, no holdout window
    expect(r.calibration.calibrationSales).toBeGreaterThan(0);
    expect(Object.keys(r.calibration.segments).length).toBeGreaterThan(0);
    expect(overall.nCoverage).toBeGreaterThan(0);
    expect(overall.coverage80!).toBeGreaterThan(0.5);
    const naive = r.baselines.find((b) => b.kind === 'overall' && b.group === 'all')!;
    expect(naive.n).toBeGreaterThan(100);
    expect(naive.n + naive.refused).toBe(overall.n);
    const paired = r.vsNaive.find((v) => v.kind === 'overall')!;
    expect(paired.n).toBeGreaterThan(100);
    expect(paired.n).toBeLessThanOrEqual(Math.min(naive.n, overall.valued));
  }, 180_000);
});

describe('avm backtest --raw refuses a bad folder in one line', () => {
  const expectOneLine = async (raw: string, pattern: RegExp) => {
    const run = await runCli(['backtest', '--raw', raw, '--data-dir', join(tmp, 'out-bad')]);
    expect(run.code).toBe(1);
    const lines = linesOf(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  };

  it('a missing folder', async () => {
    await expectOneLine(join(tmp, 'nowhere'), /^avm: ingest_invalid_file: .*nowhere: no such folder/);
  });

  it('a missing file, named', async () => {
    writeRawFolder(join(tmp, 'partial'), fixtureRows());
    rmSync(join(tmp, 'partial', 'ccao_res_characteristics.csv'));
    await expectOneLine(join(tmp, 'partial'), /^avm: ingest_invalid_file: ccao_res_characteristics\.csv: required file missing/);
  });

  it('a bad layout: a required column missing', async () => {
    writeRawFolder(join(tmp, 'badlayout'), fixtureRows());
    const f = join(tmp, 'badlayout', 'ccao_parcel_sales.csv');
    writeFileSync(f, readFileSync(f, 'utf8').replace('sale_price', 'price'));
    await expectOneLine(join(tmp, 'badlayout'), /^avm: ingest_invalid_file: .*ccao_parcel_sales\.csv.*sale_price/);
  });
  it('a --report path that is a folder, before any work', async () => {
    writeRawFolder(join(tmp, 'good'), fixtureRows());
    const run = await runCli(['backtest', '--raw', join(tmp, 'good'), '--report', tmp, '--data-dir', join(tmp, 'out-report-dir')]);
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([`avm: validation_failed: --report ${tmp} is a directory; give a file path`]);
  });
});
