// One `avm worker` scoring a whole `avm score-all --distributed` run on a corpus folder (AVM_BENCH_DATA_DIR, read-only:
// copied first), on a throwaway PostgreSQL: the worker's throughput (parcels per second of scoring, from its own
// per-partition times, pool start-up excluded) and the run's end to end. Run: `npx tsx bench/distributed-worker.ts`.
// Not part of `npm run bench` (it needs PostgreSQL); the scale model in README quotes its figure.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster } from './pg-cluster.js';
import { spawnCli } from './server-support.js';

const source = process.env.AVM_BENCH_DATA_DIR;
if (!source) throw new Error('set AVM_BENCH_DATA_DIR to an ingested corpus folder');
const dataDir = mkdtempSync(join(tmpdir(), 'avm-bench-dist-'));
cpSync(join(source, 'lmdb'), join(dataDir, 'lmdb'), { recursive: true });
const snapshotDir = mkdtempSync(join(tmpdir(), 'avm-bench-dist-snap-'));
const cluster = await startLocalCluster();
try {
  const env = { AVM_DATA_DIR: dataDir, AVM_DATABASE_URL: cluster.createDatabase('bench'), AVM_SNAPSHOT_DIR: snapshotDir, AVM_WORKERS: process.env.AVM_WORKERS ?? '2' };
  const run = spawnCli(['score-all', '--distributed', ...(process.env.PARTITION_ROWS ? ['--partition-rows', process.env.PARTITION_ROWS] : [])], env);
  const worker = spawnCli(['worker'], env);
  const load0 = loadavg()[0];
  const out = await run.exit;
  worker.child.kill('SIGTERM');
  const w = await worker.exit;
  if (out.code !== 0) throw new Error(`score-all --distributed failed: ${out.stderr}`);
  const summary = JSON.parse(out.stdout.trim().split('\n').pop()!) as { total_parcels: number; wall_ms: number; parcels_per_s: number; manifest: string };
  const done = w.stdout.split('\n').map((l) => /^done \S+ part \d+ rows (\d+) ms (\d+)/.exec(l)).filter((m) => m !== null);
  const rows = done.reduce((n, m) => n + Number(m[1]), 0);
  const ms = done.reduce((n, m) => n + Number(m[2]), 0);
  const manifest = JSON.parse(readFileSync(summary.manifest, 'utf8')) as { partitions: unknown[]; counts: unknown };
  process.stdout.write(`${JSON.stringify({
    parcels: summary.total_parcels, partitions: manifest.partitions.length, counts: manifest.counts, worker_threads: Number(env.AVM_WORKERS),
    worker_scoring_ms: ms, worker_parcels_per_s: Math.round((rows / ms) * 1000 * 10) / 10,
    run_wall_ms: summary.wall_ms, run_parcels_per_s: summary.parcels_per_s, loadavg_1m: [load0, loadavg()[0]].map((x) => Math.round(x * 10) / 10),
  })}\n`);
} finally {
  cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(snapshotDir, { recursive: true, force: true });
}
