// The peers bench's SQL is only worth its timings if it computes what the kernel computes: on the small corpus, the
// per-subject candidate query (DuckDB's box prefilter, PostGIS' geometry and geography prefilters), the whole-county
// grid join and the SQL step-1 valuation must return exactly the kernel's row sets and its step-1 values.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countySubjects } from '../../bench/county-subjects.js';
import { compareDigests, compareRowSets, compareValues } from '../../bench/peers/compare.js';
import { bulkStep1, digestOf, FRONT_ENDS, passingRows, truthKernel, valuesOf, type Digest, type Value } from '../../bench/peers/ours.js';
import { encodeSubjects } from '../../src/kernel/decode.js';
import { duckdbPeer, type SqlPeer } from '../../bench/peers/peer-db.js';
import { loadPostgis, startPostgis, type PgSession } from '../../bench/peers/postgis.js';
import { candidateQuery, loadPeer, runBatch, type CsvFiles } from '../../bench/peers/run-peer.js';
import type { Prefilter } from '../../bench/peers/sql.js';
import { gridFor, monthSpan, policyOf, writeLevelsCsv, writeSalesCsv, writeSubjectsCsv } from '../../bench/peers/tables.js';
import { havOfMi } from '../../bench/reference/ref-math.js';
import { kernelParams } from '../../src/kernel/params.js';
import type { Subject } from '../../src/kernel/types.js';
import { isoOfDay } from '../../src/store/days.js';
import { openStore } from '../../src/store/store.js';
import { kernelColumnsOf } from '../../src/valuation/comps/kernel-columns.js';
import { buildValuationContext, servingCutoffDay } from '../../src/valuation/value-context.js';
import { smallCorpusDir } from '../support/corpus.js';
import { PG_AVAILABLE } from '../support/pg-backends.js';

const p = policyOf(kernelParams());
type Fixture = { files: CsvFiles; dir: string; subjects: Subject[]; truth: number[][]; digests: Map<number, Digest>; values: Map<number, Value>; decoded: Map<number, Value> };
let fx: Fixture;

beforeAll(async () => {
  const store = openStore(await smallCorpusDir());
  try {
    const ctx = buildValuationContext(store, { hooks: {}, calibration: null });
    const cols = kernelColumnsOf(ctx.sales);
    // As-of days from the data (not today), so the subjects find comps whatever day the test runs: the serving cutoff,
    // the last sale day (sales on the as-of day itself must be left out: strictly before) and 45 days earlier.
    const cutoff = servingCutoffDay(ctx.sales);
    const subjects = [cutoff, cutoff - 1, cutoff - 46].flatMap((day) => countySubjects(ctx, 150, isoOfDay(day)).map((c) => c.subject));
    const tk = truthKernel(cols, ctx.timeIndex.series);
    const truth = subjects.map((s) => passingRows(tk, s));
    const digests = new Map(truth.map((t, i) => [i, digestOf(t)] as const).filter(([, d]) => d.n > 0));
    const k = FRONT_ENDS[0].create(cols, ctx.timeIndex.series)!;
    // The bench's bulk reader (record headers of batchView) against the decoded objects of batch(): the same figures.
    const values = valuesOf(bulkStep1(k, encodeSubjects(subjects, { maxStep: 1 }), subjects.length));
    const decoded = new Map<number, Value>();
    k.batch(subjects, { maxStep: 1 }).forEach((r, i) => {
      if ('stats' in r && r.nQualified > 0) decoded.set(i, { nQualified: r.nQualified, n: r.stats.n, value: r.stats.median });
    });
    const dir = mkdtempSync(join(tmpdir(), 'avm-peers-test-'));
    const files = { sales: join(dir, 'sales.csv'), subjects: join(dir, 'subjects.csv'), levels: join(dir, 'levels.csv') };
    const grid = gridFor(cols, p.radiusMi);
    await writeSalesCsv(files.sales, cols, grid);
    await writeSubjectsCsv(files.subjects, subjects, grid, p.radiusMi, p.windowDays);
    await writeLevelsCsv(files.levels, ctx.timeIndex.series, ...monthSpan(cols, subjects));
    fx = { files, dir, subjects, truth, digests, values, decoded };
  } finally {
    await store.close();
  }
}, 180_000);

afterAll(() => rmSync(fx?.dir ?? '/nonexistent', { recursive: true, force: true }));

const sids = () => fx.subjects.map((_, i) => i);

async function expectAgreement(peer: SqlPeer, prefilters: Prefilter[]): Promise<void> {
  for (const pre of prefilters) {
    const q = await candidateQuery(peer, p, pre);
    const got: number[][] = [];
    for (const s of fx.subjects) got.push(await q(s));
    expect(compareRowSets(fx.truth, got), pre).toMatchObject({ compared: fx.subjects.length, mismatches: 0 });
  }
  const b = await runBatch(peer, p, havOfMi(p.radiusMi), 'subjects');
  expect(compareDigests(fx.digests, b.digests, sids())).toMatchObject({ mismatches: 0 });
  expect(compareValues(fx.values, b.values, sids())).toMatchObject({ mismatches: 0 });
}

describe('peers SQL on the small corpus', () => {
  it('the subjects find candidates and values (so the checks below compare something)', () => {
    // The test corpus is thin: most subjects find nothing at step 1 (0.5 mi, 180 d), a few dozen do.
    expect(fx.subjects.length).toBeGreaterThanOrEqual(200);
    expect(fx.truth.filter((t) => t.length > 0).length).toBeGreaterThanOrEqual(30);
    expect([...fx.values.values()].filter((v) => v.value !== null).length).toBeGreaterThanOrEqual(20);
  });

  it("the bench's bulk table (batchView record headers) holds what batch() decodes, subject by subject", () => {
    expect([...fx.values.entries()]).toEqual([...fx.decoded.entries()]);
  });

  it('DuckDB returns the kernel candidate row sets, batch digests and step-1 values', async () => {
    const duck = await duckdbPeer();
    try {
      await loadPeer(duck, fx.files, p, { orderBy: 'ORDER BY ptype, county, lat' });
      await expectAgreement(duck, ['box']);
    } finally {
      await duck.close();
    }
  }, 120_000);
});

describe.skipIf(!PG_AVAILABLE)('peers SQL in PostgreSQL + PostGIS', () => {
  let pg: PgSession;
  beforeAll(async () => {
    pg = await startPostgis();
  }, 60_000);
  afterAll(async () => {
    await pg?.peer.close();
    pg?.cluster.stop();
  });

  it('PostGIS returns the kernel candidate row sets (geometry and geography prefilters), batch digests and values', async () => {
    // The server reads the CSVs from its own folder.
    const { copyFileSync } = await import('node:fs');
    const files = Object.fromEntries(Object.entries(fx.files).map(([k, f]) => [k, join(pg.cluster.dir, `${k}.csv`)])) as CsvFiles;
    for (const k of Object.keys(files) as Array<keyof CsvFiles>) copyFileSync(fx.files[k], files[k]);
    await loadPostgis(pg, files, p);
    await pg.peer.exec('CREATE INDEX sales_ix ON sales USING gist (geom, ptype, county, sale_day)');
    await expectAgreement(pg.peer, ['geom', 'geog']);
  }, 120_000);
});
