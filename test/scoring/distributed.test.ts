// `avm score-all --distributed` against a real PostgreSQL: three `avm worker` processes (the compiled CLI) claim the
// partitions from pg-boss; one is killed with SIGKILL while it holds a partition; its partition is retried by another
// worker once its heartbeat lapses. Every parcel is scored exactly once, and the final partitions, concatenated, are the
// table of a single-machine score-all run on the same corpus, column for column. The workers' machine does not hold the
// run's snapshot: they load it from the shared folder.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC, type Table } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgBoss } from 'pg-boss';
import { startLocalCluster, type LocalCluster } from '../../bench/pg-cluster.js';
import { spawnCli } from '../../bench/server-support.js';
import { resultsKey, scoreAll } from '../../src/scoring/bulk/score-all.js';
import { resumeDistributedScoreAll, runDistributedScoreAll } from '../../src/scoring/distributed/coordinator.js';
import { startScoreWorker } from '../../src/scoring/distributed/worker.js';
import { openScoreQueue, SCORE_QUEUE, type PartitionJob } from '../../src/scoring/distributed/queue.js';
import { sha256Of } from '../../src/scoring/distributed/result-files.js';
import { poolScorer } from '../../src/scoring/scorer.js';
import { adoptSnapshot } from '../../src/store/adopt-snapshot.js';
import { DB_NAMES, openSubDb } from '../../src/store/env.js';
import { utcDay } from '../../src/store/days.js';
import { migrate } from '../../src/store/pg/migrate.js';
import { openPgPool, type PgPool } from '../../src/store/pg/pool.js';
import { openStore, type Store } from '../../src/store/store.js';
import { cleanupCopies, copyOfSmallCorpus } from '../support/corpus-copy.js';
import { testConfig } from '../support/corpus.js';
import { PG_AVAILABLE } from '../support/pg-backends.js';

const PARTITIONS = 9;

/** Every column's values as bytes (NaN compared bit for bit, as it is stored) or strings. */
function columnsOf(t: Table): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of t.schema.fields) {
    const v = t.getChild(f.name)!.toArray() as ArrayLike<unknown>;
    out[f.name] = ArrayBuffer.isView(v) ? Buffer.from((v as Uint8Array).buffer, (v as Uint8Array).byteOffset, (v as Uint8Array).byteLength).toString('base64') : JSON.stringify(Array.from(v));
  }
  return out;
}

describe.skipIf(!PG_AVAILABLE)('score-all --distributed on pg-boss', () => {
  let cluster: LocalCluster;
  let url: string;
  let pool: PgPool;
  let boss: PgBoss;
  let store: Store;
  let dataDir: string;
  let workerDir: string;
  const snapshotDir = mkdtempSync(join(tmpdir(), 'avm-dist-snap-'));
  const workers: ChildProcess[] = [];
  beforeAll(async () => {
    cluster = await startLocalCluster();
    url = cluster.createDatabase('distributed');
    pool = openPgPool(url, { max: 4 });
    await migrate(pool);
    boss = await openScoreQueue(url, () => undefined);
    dataDir = await copyOfSmallCorpus();
    workerDir = await copyOfSmallCorpus();
    store = openStore(dataDir);
    // The coordinator's machine ingested a snapshot the workers' machine does not hold (the same bytes under a new id,
    // as a re-ingest adds one): every worker must load it from the shared folder and check its sha256 first.
    const cur = store.listSnapshots().find((s) => s.id === store.currentSnapshotId())!;
    adoptSnapshot(store.env, { ...cur, id: `s-000002-${cur.sales_sha256.slice(0, 12)}`, seq: 2 }, { sales: store.readSalesSnapshotBytes().bytes, parcels: store.readParcelBytes().bytes });
  }, 300_000);
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await boss?.stop({ graceful: false });
    await store?.close();
    await pool?.end();
    cluster?.stop();
    cleanupCopies();
  });

  it('three workers, one killed with SIGKILL mid-run: every parcel once, the single-machine table exactly', async () => {
    const config = testConfig(dataDir, { AVM_WORKERS: '1' });
    // the single-machine run on the same corpus, as of the same date (each run would otherwise take the UTC date it starts on)
    const asOf = utcDay(new Date());
    const scorer = await poolScorer(store, config, { warmLookups: false });
    const single = await scoreAll(store, scorer, { asOf }).finally(() => scorer.close());
    const singleTable = tableFromIPC(openSubDb<Buffer>(store.env, DB_NAMES.results).getBinary(resultsKey(single.snapshot_id))!);
    const total = store.readParcels().table.numRows;

    const env = { AVM_DATA_DIR: workerDir, AVM_DATABASE_URL: url, AVM_SNAPSHOT_DIR: snapshotDir, AVM_WORKERS: '1' };
    const lines: string[][] = [[], [], []];
    let killed: { pid: number; line: string } | null = null;
    for (let i = 0; i < 3; i++) {
      const { child } = spawnCli(['worker'], env);
      workers.push(child);
      child.stdout!.on('data', (d: Buffer) => {
        for (const line of d.toString().split('\n').filter(Boolean)) {
          lines[i].push(line);
          // worker 0 dies holding its first partition
          if (i === 0 && killed === null && line.startsWith('claimed ')) {
            killed = { pid: child.pid!, line };
            child.kill('SIGKILL');
          }
        }
      });
    }
    // all three polling before the run is queued, so worker 0 is sure to claim a partition in the first round
    const end = Date.now() + 120_000;
    while (!lines.every((l) => l.some((x) => x.includes('waiting for partitions')))) {
      if (Date.now() > end) throw new Error(`workers did not start: ${JSON.stringify(lines)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const manifest = await runDistributedScoreAll({ pool, boss, store, config, snapshotDir, partitionRows: Math.ceil(total / PARTITIONS), asOf });
    expect(manifest.as_of).toBe(asOf);
    expect(killed).not.toBeNull();
    const killedId = `${hostname()}:${killed!.pid}`;

    // one manifest: the partitions tile the parcel rows exactly once, the counts add up
    expect(manifest.partitions).toHaveLength(PARTITIONS);
    expect(manifest.partitions.map((p) => [p.first_row, p.end_row])).toEqual(Array.from({ length: PARTITIONS }, (_, k) => [k * Math.ceil(total / PARTITIONS), Math.min(total, (k + 1) * Math.ceil(total / PARTITIONS))]));
    expect(manifest.partitions.reduce((n, p) => n + p.rows, 0)).toBe(total);
    expect(manifest.counts).toEqual({ parcels: total, point: single.point, scored: single.scored, errors: single.errors });
    expect(JSON.parse(readFileSync(join(snapshotDir, manifest.snapshot_id, 'score-all', manifest.run_id, 'manifest.json'), 'utf8'))).toEqual(manifest);

    // the killed worker's partition was retried and finished by another worker; it finished none itself
    const claimedPart = Number(/part (\d+)/.exec(killed!.line)![1]);
    const retried = manifest.partitions.find((p) => p.part === claimedPart)!;
    expect(retried.attempts).toBeGreaterThanOrEqual(2);
    const jobs = await boss.findJobs<PartitionJob>(SCORE_QUEUE, { data: { runId: manifest.run_id } });
    expect(jobs).toHaveLength(PARTITIONS);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    expect(jobs.find((j) => j.data.part === claimedPart)!.retryCount).toBeGreaterThanOrEqual(1); // pg-boss retried it
    expect(manifest.partitions.every((p) => p.worker !== killedId)).toBe(true);
    expect(new Set(manifest.partitions.map((p) => p.worker)).size).toBe(2);

    // the final partitions, each matching its sha256, concatenated: the single-machine table, row for row
    const parts = manifest.partitions.map((p) => {
      const bytes = new Uint8Array(readFileSync(join(snapshotDir, p.file)));
      expect(sha256Of(bytes)).toBe(p.sha256);
      return tableFromIPC(bytes);
    });
    const pins = parts.flatMap((t) => t.getChild('pin')!.toArray() as string[]);
    expect(pins).toHaveLength(total);
    expect(new Set(pins).size).toBe(total);
    const joined = parts.slice(1).reduce((a, t) => a.concat(t), parts[0]);
    expect(joined.schema.fields.map((f) => f.name)).toEqual(singleTable.schema.fields.map((f) => f.name));
    expect(columnsOf(joined)).toEqual(columnsOf(singleTable));
    // a coordinator that stopped is replaced by --resume: the same partitions, the same bytes
    const again = await resumeDistributedScoreAll({ pool, boss, store, config, snapshotDir }, manifest.run_id);
    expect(again.partitions).toEqual(manifest.partitions);
    expect(again.counts).toEqual(manifest.counts);
    expect(again.as_of).toBe(asOf); // the recorded date, whatever day the resume runs on
    await expect(resumeDistributedScoreAll({ pool, boss, store, config, snapshotDir }, 'run-none')).rejects.toMatchObject({ code: 'not_found' });
    // the workers' store now holds the run's snapshot, loaded from the folder beside the one it had
    const workerStore = openStore(workerDir);
    try {
      expect(workerStore.listSnapshots().map((s) => s.id)).toEqual([single.snapshot_id.replace(/^s-000002/, 's-000001'), single.snapshot_id]);
      expect(workerStore.verifySnapshot(single.snapshot_id)?.ok).toBe(true);
      expect(workerStore.currentSnapshotId()).toBe(single.snapshot_id.replace(/^s-000002/, 's-000001')); // not switched
    } finally {
      await workerStore.close();
    }
    // not a trivial table: valued rows with ranges, beside refusals
    const low = singleTable.getChild('arv_low_usd')!.toArray() as Float64Array;
    expect(low.filter((x) => !Number.isNaN(x)).length).toBeGreaterThan(0);
    expect(new Set(singleTable.getChild('outcome')!.toArray() as Uint8Array).size).toBeGreaterThan(1);
  }, 300_000);

  it('a partition no worker can score fails after its retries and ends the run with an error naming it', async () => {
    const db = cluster.createDatabase('distributed_fail');
    const failPool = openPgPool(db, { max: 4 });
    await migrate(failPool);
    const failBoss = await openScoreQueue(db, () => undefined);
    // this worker's machine holds no snapshot and mounts another (empty) folder: it cannot load the run's snapshot
    const worker = await startScoreWorker({ config: testConfig(mkdtempSync(join(tmpdir(), 'avm-empty-'))), pool: failPool, boss: failBoss, snapshotDir: mkdtempSync(join(tmpdir(), 'avm-other-')) });
    try {
      const run = runDistributedScoreAll({ pool: failPool, boss: failBoss, store, config: testConfig(dataDir), snapshotDir, partitionRows: store.readParcels().table.numRows, pollMs: 200 });
      await expect(run).rejects.toThrow(/partition 0 failed after 5 retries .*ENOENT/);
      const { rows } = await failPool.query<{ attempts: number; completed_at: Date | null }>('SELECT attempts, completed_at FROM score_partitions');
      expect(rows).toEqual([{ attempts: 6, completed_at: null }]);
    } finally {
      await worker.stop();
      await failBoss.stop({ graceful: false });
      await failPool.end();
    }
  }, 120_000);
});
