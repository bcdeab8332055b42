// `avm score-all --distributed`: cuts the current snapshot's parcels into partitions, queues one pg-boss job per
// partition, waits while `avm worker` processes (any number, any machines) score them, then ranks the percentiles over
// the whole corpus (as score-all does: the population is every scored parcel, not a partition's) and writes the final
// partitions and ONE manifest (partitions, counts, sha256s) beside the snapshot. The rows are those of a single-machine
// score-all run, partition by partition.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Table, Utf8, Vector } from 'apache-arrow';
import { AppError } from '../../errors/app-error.js';
import type { PgBoss } from 'pg-boss';
import type { Config } from '../../config.js';
import type { Progress } from '../../progress.js';
import { DISTRIBUTED } from '../../registry/groups/distributed.js';
import { MODEL_VERSION } from '../../registry/versions.js';
import { utcDay } from '../../store/days.js';
import type { PgPool } from '../../store/pg/pool.js';
import { writeFileAtomic } from '../../store/shared/atomic-file.js';
import { snapshotFolder } from '../../store/shared/snapshot-source.js';
import type { Store } from '../../store/store.js';
import { readStamp, type Stamp } from '../../workers/stamp.js';
import { concatColumns, encodeRanked, percentilesOf } from '../bulk/score-all.js';
import type { ScoreColumns } from '../bulk/columns.js';
import { planPartitions, sliceColumns } from './partitions.js';
import { SCORE_QUEUE, type PartitionJob } from './queue.js';
import { decodeRawPartition, partName, readVerified, runDirOf, writeResultFile } from './result-files.js';
import { countDone, createRun, donePartitions, finishRun, readRun, type DonePartition, type RunRecord } from './runs.js';

export type RunManifest = {
  format: 1;
  run_id: string;
  snapshot_id: string;
  model_version: string;
  stamp: Stamp;
  /** The date every parcel is valued as of: the UTC date when the run started, whichever day a partition is scored on. */
  as_of: string;
  /** Parcels in the snapshot = the sum of the partitions' rows. */
  total_parcels: number;
  counts: { parcels: number; point: number; scored: number; errors: number };
  partitions: Array<{ part: number; first_row: number; end_row: number; rows: number; file: string; sha256: string; raw_file: string; raw_sha256: string; worker: string; attempts: number }>;
  wall_ms: number;
  parcels_per_s: number;
};

/** `asOf`: the date every parcel is valued as of; default the UTC date when the run starts. */
export type DistributedOptions = { pool: PgPool; boss: PgBoss; store: Store; config: Pick<Config, 'dataDir'>; snapshotDir: string; partitionRows?: number; progress?: Progress; pollMs?: number; asOf?: string };

/** The snapshot's files in the shared folder (written there when absent; the pointer is not moved). */
async function ensurePublished(store: Store, snapshotDir: string, id: string): Promise<void> {
  const folder = snapshotFolder(snapshotDir);
  if (await folder.readManifest(id).then(() => true, () => false)) return;
  const sales = store.readSalesSnapshotBytes(id).bytes;
  const parcels = store.readParcelBytes(id).bytes;
  const info = store.listSnapshots().find((s) => s.id === id)!;
  await folder.writeSnapshot({ format: 1, snapshot: info, bytes: { sales: sales.byteLength, parcels: parcels.byteLength }, published_at: new Date().toISOString() }, sales, parcels);
}

async function waitForPartitions(o: DistributedOptions, runId: string, total: number, rows: number): Promise<void> {
  for (let polls = 0; ; polls++) {
    const done = await countDone(o.pool, runId);
    o.progress?.update(Math.round((done / total) * rows), rows, `${done}/${total} partitions`);
    if (done === total) return;
    // A partition whose retries ran out ends the run (its job is failed in pg-boss; the rest would wait forever).
    if (polls % 5 === 4) {
      const failed = (await o.boss.findJobs<PartitionJob>(SCORE_QUEUE, { data: { runId }, limit: total })).filter((j) => j.state === 'failed');
      if (failed.length > 0) throw new Error(`score run ${runId}: partition ${failed[0].data.part} failed after ${failed[0].retryLimit} retries (${JSON.stringify(failed[0].output ?? null)})`);
    }
    await new Promise((r) => setTimeout(r, o.pollMs ?? DISTRIBUTED.v.run_poll_ms));
  }
}

function counts(c: ScoreColumns): RunManifest['counts'] {
  let point = 0, scored = 0, errors = 0;
  for (let i = 0; i < c.outcome.length; i++) {
    point += c.point[i];
    errors += c.error[i];
    if (c.raw.some((r) => !Number.isNaN(r[i]))) scored++;
  }
  return { parcels: c.outcome.length, point, scored, errors };
}

/** Ranks over every partition, writes the final partitions and the manifest; returns the manifest. */
async function finalize(o: DistributedOptions, run: RunRecord, pins: Vector<Utf8>, done: DonePartition[], t0: number): Promise<RunManifest> {
  const { runId, runDir } = run;
  const raw = await Promise.all(done.map(async (p) => decodeRawPartition(await readVerified(join(o.snapshotDir, p.file), p.sha256))));
  const all = concatColumns(raw);
  const ranked = percentilesOf(all);
  const partitions: RunManifest['partitions'] = [];
  for (const p of done) {
    const [a, b] = [p.firstRow, p.endRow];
    const bytes = encodeRanked(pins.slice(a, b), sliceColumns(all, a, b), { pct: ranked.pct.map((x) => x.subarray(a, b)), deal: ranked.deal.subarray(a, b) });
    const file = join(runDir, partName(p.part));
    const sha256 = await writeResultFile(join(o.snapshotDir, file), bytes);
    partitions.push({ part: p.part, first_row: a, end_row: b, rows: b - a, file, sha256, raw_file: p.file, raw_sha256: p.sha256, worker: p.worker, attempts: p.attempts });
  }
  const wallMs = performance.now() - t0;
  const manifest: RunManifest = {
    format: 1, run_id: runId, snapshot_id: run.snapshot.id, model_version: MODEL_VERSION, stamp: run.stamp, as_of: run.asOf, total_parcels: pins.length,
    counts: counts(all), partitions, wall_ms: Math.round(wallMs), parcels_per_s: Math.round((pins.length / wallMs) * 1000 * 10) / 10,
  };
  await writeFileAtomic(join(o.snapshotDir, runDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await finishRun(o.pool, runId, manifest);
  return manifest;
}

/** Queues the run, waits for the workers, finalizes. The store's current snapshot and versions are the run's. */
export async function runDistributedScoreAll(o: DistributedOptions): Promise<RunManifest> {
  const t0 = performance.now();
  const stamp = readStamp(o.store);
  const asOf = o.asOf ?? utcDay(new Date());
  const id = stamp.snapshotId;
  const snapshot = o.store.listSnapshots().find((s) => s.id === id)!;
  const { table, pins } = parcelsOf(o.store, id);
  await ensurePublished(o.store, o.snapshotDir, id);
  const parts = planPartitions(table.numRows, o.partitionRows ?? DISTRIBUTED.v.partition_rows);
  const runId = `run-${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
  const runDir = runDirOf(id, runId);
  const run: RunRecord = { runId, snapshot, stamp, asOf, totalRows: table.numRows, partitions: parts.length, runDir };
  await createRun(o.pool, run, parts);
  await o.boss.insert(SCORE_QUEUE, parts.map((p) => ({ data: { runId, part: p.part } satisfies PartitionJob })));
  await waitForPartitions(o, runId, parts.length, table.numRows);
  o.progress?.stop();
  return finalize(o, run, pins, await donePartitions(o.pool, runId), t0);
}

/**
 * A run whose coordinator died (the workers went on): waits for its remaining partitions and finalizes it. Needs the
 * run's snapshot in this store. Finalizing a finished run again rewrites the same files (the same bytes).
 */
export async function resumeDistributedScoreAll(o: DistributedOptions, runId: string): Promise<RunManifest> {
  const t0 = performance.now();
  const run = await readRun(o.pool, runId);
  if (!run) throw new AppError('not_found', `no distributed score-all run ${runId}`);
  const { pins } = parcelsOf(o.store, run.snapshot.id);
  await waitForPartitions(o, runId, run.partitions, run.totalRows);
  o.progress?.stop();
  return finalize(o, run, pins, await donePartitions(o.pool, runId), t0);
}

function parcelsOf(store: Store, id: string): { table: Table; pins: Vector<Utf8> } {
  const { table } = store.readParcels(id);
  const pins = table.getChild('pin') as Vector<Utf8> | null;
  if (!pins) throw new Error('parcel table has no pin column');
  return { table, pins };
}
