// A distributed run's own record in PostgreSQL (migration 0301): the run (snapshot, stamp, as-of date, where its files go) and its
// partitions. A partition is completed once: the first worker to finish it records its file and sha256; a retried
// duplicate (a worker thought dead that was only slow) finds it done and its file identical (same rows, same scorer).
import { utcDay } from '../../store/days.js';
import type { SnapshotInfo } from '../../store/snapshots.js';
import { inTransaction, type PgPool } from '../../store/pg/pool.js';
import type { Stamp } from '../../workers/stamp.js';
import type { Partition } from './partitions.js';

/**
 * `runDir` is relative to the shared snapshot folder, which each machine may mount at its own path. `asOf`: the date
 * every partition is valued as of, decided when the run starts (kept in the stamp document; a run recorded before
 * runs carried it reads the UTC date it was created on).
 */
export type RunRecord = { runId: string; snapshot: SnapshotInfo; stamp: Stamp; asOf: string; totalRows: number; partitions: number; runDir: string };
export type DonePartition = Partition & { worker: string; file: string; sha256: string; rows: number; attempts: number };

export async function createRun(pool: PgPool, run: RunRecord, parts: readonly Partition[]): Promise<void> {
  await inTransaction(pool, async (c) => {
    await c.query('INSERT INTO score_runs (run_id, snapshot_id, stamp, total_rows, partitions, results_dir) VALUES ($1, $2, $3, $4, $5, $6)', [
      run.runId, run.snapshot.id, JSON.stringify({ stamp: run.stamp, snapshot: run.snapshot, as_of: run.asOf }), run.totalRows, run.partitions, run.runDir,
    ]);
    await c.query('INSERT INTO score_partitions (run_id, part, first_row, end_row) SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[])', [
      run.runId, parts.map((p) => p.part), parts.map((p) => p.firstRow), parts.map((p) => p.endRow),
    ]);
  });
}

export async function readRun(pool: PgPool, runId: string): Promise<RunRecord | null> {
  const { rows } = await pool.query<{ stamp: { stamp: Stamp; snapshot: SnapshotInfo; as_of?: string }; created_at: Date; total_rows: number; partitions: number; results_dir: string }>(
    'SELECT stamp, created_at, total_rows, partitions, results_dir FROM score_runs WHERE run_id = $1', [runId],
  );
  const r = rows[0];
  return r ? { runId, snapshot: r.stamp.snapshot, stamp: r.stamp.stamp, asOf: r.stamp.as_of ?? utcDay(r.created_at), totalRows: r.total_rows, partitions: r.partitions, runDir: r.results_dir } : null;
}

/** Counts an attempt on the partition; returns its rows, or null when it is already done (nothing to score). */
export async function startAttempt(pool: PgPool, runId: string, part: number): Promise<Partition | null> {
  const { rows } = await pool.query<{ first_row: number; end_row: number; completed: boolean }>(
    'UPDATE score_partitions SET attempts = attempts + 1 WHERE run_id = $1 AND part = $2 RETURNING first_row, end_row, completed_at IS NOT NULL AS completed', [runId, part],
  );
  const r = rows[0];
  if (!r) throw new Error(`run ${runId} has no partition ${part}`);
  return r.completed ? null : { part, firstRow: r.first_row, endRow: r.end_row };
}

/** Records the partition done unless another worker already did; true when this call recorded it. */
export async function completePartition(pool: PgPool, runId: string, part: number, d: { worker: string; file: string; sha256: string; rows: number }): Promise<boolean> {
  const { rowCount } = await pool.query(
    'UPDATE score_partitions SET worker = $3, file = $4, sha256 = $5, rows_scored = $6, completed_at = now() WHERE run_id = $1 AND part = $2 AND completed_at IS NULL',
    [runId, part, d.worker, d.file, d.sha256, d.rows],
  );
  return rowCount === 1;
}

export async function countDone(pool: PgPool, runId: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM score_partitions WHERE run_id = $1 AND completed_at IS NOT NULL', [runId]);
  return Number(rows[0].n);
}

export async function donePartitions(pool: PgPool, runId: string): Promise<DonePartition[]> {
  const { rows } = await pool.query<{ part: number; first_row: number; end_row: number; worker: string; file: string; sha256: string; rows_scored: number; attempts: number }>(
    'SELECT part, first_row, end_row, worker, file, sha256, rows_scored, attempts FROM score_partitions WHERE run_id = $1 AND completed_at IS NOT NULL ORDER BY part', [runId],
  );
  return rows.map((r) => ({ part: r.part, firstRow: r.first_row, endRow: r.end_row, worker: r.worker, file: r.file, sha256: r.sha256, rows: r.rows_scored, attempts: r.attempts }));
}

export async function finishRun(pool: PgPool, runId: string, manifest: unknown): Promise<void> {
  await pool.query('UPDATE score_runs SET finished_at = now(), manifest = $2 WHERE run_id = $1', [runId, JSON.stringify(manifest)]);
}
