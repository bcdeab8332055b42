// `avm worker`: claims partitions of distributed score-all runs from the pg-boss queue, one at a time, and scores each
// with this machine's kernel through score-all's own path (scoreRows over poolScorer, under the run's stamp), writes
// the raw score columns beside the snapshot (atomically) and records the partition done. A snapshot this machine does
// not hold yet is loaded from the shared folder and checked against the sha256 the run recorded (adoptSnapshot), and
// stored beside the others without becoming the machine's current one.
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { PgBoss } from 'pg-boss';
import type { Config } from '../../config.js';
import { LISTINGS_RUN } from '../../registry/groups/listings.js';
import { adoptSnapshot, holdsIntactSnapshot } from '../../store/adopt-snapshot.js';
import type { PgPool } from '../../store/pg/pool.js';
import { snapshotFolder, SNAPSHOT_FILES } from '../../store/shared/snapshot-source.js';
import { openStore, type Store } from '../../store/store.js';
import type { Stamp } from '../../workers/stamp.js';
import { scoreRows } from '../bulk/score-all.js';
import { poolScorer, type BatchScorer } from '../scorer.js';
import { rowsOf } from './partitions.js';
import { SCORE_QUEUE, type PartitionJob } from './queue.js';
import { encodeRawPartition, rawPartPath, writeResultFile } from './result-files.js';
import { completePartition, readRun, startAttempt, type RunRecord } from './runs.js';

export type ScoreWorkerOptions = { config: Config; pool: PgPool; boss: PgBoss; snapshotDir: string; workerId?: string; log?: (line: string) => void };
export type ScoreWorker = { workerId: string; stop(): Promise<void> };

async function ensureSnapshot(store: Store, snapshotDir: string, run: RunRecord): Promise<void> {
  if (holdsIntactSnapshot(store.env, run.snapshot.id)) return;
  const folder = snapshotFolder(snapshotDir);
  const [sales, parcels] = await Promise.all([folder.readFile(run.snapshot.id, SNAPSHOT_FILES.sales), folder.readFile(run.snapshot.id, SNAPSHOT_FILES.parcels)]);
  adoptSnapshot(store.env, run.snapshot, { sales, parcels }, { makeCurrent: false }); // scored by id; a replica here keeps serving its own
}

export async function startScoreWorker(o: ScoreWorkerOptions): Promise<ScoreWorker> {
  const workerId = o.workerId ?? `${hostname()}:${process.pid}`;
  const log = o.log ?? (() => undefined);
  const store = openStore(o.config.dataDir);
  let held: { key: string; scorer: BatchScorer } | null = null;
  // A run's record and its snapshot do not change: read and checked once per worker.
  const runs = new Map<string, RunRecord>();
  const ready = new Set<string>();
  const scorerFor = async (stamp: Stamp): Promise<BatchScorer> => {
    const key = JSON.stringify(stamp);
    if (held?.key === key) return held.scorer;
    await held?.scorer.close();
    held = null;
    const scorer = await poolScorer(store, o.config, { warmLookups: false, stamp });
    held = { key, scorer };
    return scorer;
  };
  const handle = async ({ runId, part }: PartitionJob, attempt: number): Promise<void> => {
    // Counted first, before the claim is logged: a worker killed from here on has left its attempt on record.
    const p = await startAttempt(o.pool, runId, part);
    if (!p) return void log(`skipped ${runId} part ${part}: already done`);
    log(`claimed ${runId} part ${part} attempt ${attempt + 1}`);
    const run = runs.get(runId) ?? (await readRun(o.pool, runId));
    if (!run) throw new Error(`no score run ${runId}`);
    runs.set(runId, run);
    // Hashing the snapshot (hundreds of MB at county scale) once per run here, not once per partition.
    if (!ready.has(run.snapshot.id)) {
      await ensureSnapshot(store, o.snapshotDir, run);
      ready.add(run.snapshot.id);
    }
    const scorer = await scorerFor(run.stamp);
    const t0 = performance.now(); // scoring and writing, without the pool's start-up (once per stamp)
    const cols = await scoreRows(scorer, rowsOf(p), LISTINGS_RUN.v.score_all_batch_size, run.asOf);
    const file = rawPartPath(run.runDir, part);
    const sha256 = await writeResultFile(join(o.snapshotDir, file), encodeRawPartition(cols));
    const first = await completePartition(o.pool, runId, part, { worker: workerId, file, sha256, rows: p.endRow - p.firstRow });
    log(`${first ? 'done' : 'duplicate'} ${runId} part ${part} rows ${p.endRow - p.firstRow} ms ${Math.round(performance.now() - t0)}`);
  };
  await o.boss.work<PartitionJob>(SCORE_QUEUE, { batchSize: 1, localConcurrency: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => handle(job.data, job.retryCount));
  return {
    workerId,
    stop: async () => {
      await o.boss.offWork(SCORE_QUEUE, { wait: true });
      await held?.scorer.close();
      await store.close();
    },
  };
}
