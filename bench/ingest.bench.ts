// Ingest time at the default and county scales: raw files (generated once per scale, not timed) validated, joined,
// encoded and committed into a fresh LMDB. Wall and CPU time per stage, peak RSS, rows; a re-ingest of the same files
// checks the snapshot id is unchanged (determinism). Writes bench/results/ingest.json.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCorpus, type Scale } from '../src/ingest/generate/generate.js';
import { ingestAll, type IngestResult } from '../src/ingest/ingest.js';
import { CCAO_SALES, RAW_DIR } from '../src/ingest/layouts.js';
import { writeBenchResult } from './results-file.js';

export type IngestBenchOptions = {
  /** Ingest this data dir's raw files instead of generating (its LMDB is written to). */
  dataDir?: string;
  scales?: Scale[];
  seed?: number;
};

async function timeIngest(dataDir: string): Promise<{ result: IngestResult; wallMs: number; cpuMs: number; peakRssMib: number; stageMs: Record<string, number> }> {
  let peakRss = process.memoryUsage().rss;
  const stageMs: Record<string, number> = {};
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let last = t0;
  let lastStage = '';
  const result = await ingestAll({
    dataDir,
    onProgress: (_done, _total, stage) => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      if (stage === lastStage) return;
      const now = performance.now();
      if (lastStage) stageMs[lastStage] = Math.round((stageMs[lastStage] ?? 0) + now - last);
      [last, lastStage] = [now, stage];
    },
  });
  const wallMs = performance.now() - t0;
  if (lastStage) stageMs[lastStage] = Math.round((stageMs[lastStage] ?? 0) + performance.now() - last);
  const cpu = process.cpuUsage(cpu0);
  return { result, wallMs: Math.round(wallMs), cpuMs: Math.round((cpu.user + cpu.system) / 1000), peakRssMib: Math.round(peakRss / 2 ** 20), stageMs };
}

async function benchDir(label: string, dataDir: string): Promise<Record<string, unknown>> {
  const first = await timeIngest(dataDir);
  const again = await timeIngest(dataDir);
  const r = first.result;
  return {
    scale: label, wall_ms: first.wallMs, cpu_ms: first.cpuMs, peak_rss_mib: first.peakRssMib, stage_wall_ms: first.stageMs,
    sales_rows: r.salesRows, parcels: r.parcels, tracts: r.tracts, listings: r.listings,
    rows_per_file: Object.fromEntries(r.files.map((f) => [f.file, { read: f.rowsRead, kept: f.rowsKept, skipped: f.rowsSkipped, bytes: f.bytes }])),
    reingest_wall_ms: again.wallMs, reingest_same_snapshot: again.result.snapshotId === r.snapshotId && again.result.unchanged, snapshot_id: r.snapshotId,
  };
}

export async function run(opts: IngestBenchOptions = {}): Promise<Record<string, unknown>> {
  const runs: Record<string, unknown>[] = [];
  if (opts.dataDir !== undefined) {
    if (!existsSync(join(opts.dataDir, RAW_DIR, CCAO_SALES.file))) throw new Error(`${opts.dataDir}/${RAW_DIR} has no ${CCAO_SALES.file}`);
    runs.push(await benchDir('given', opts.dataDir));
  } else {
    for (const scale of opts.scales ?? ['default', 'county']) {
      const dir = mkdtempSync(join(tmpdir(), `avm-bench-ingest-${scale}-`));
      try {
        process.stderr.write(`ingest bench: generating ${scale} corpus (not timed)...\n`);
        await generateCorpus({ seed: opts.seed ?? 20261121, scale, outDir: dir });
        process.stderr.write(`ingest bench: ingesting ${scale}...\n`);
        runs.push(await benchDir(scale, dir));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const result = { command: 'npm run bench -- ingest', note: 'wall time on a shared 2-core machine; cpu_ms is the steadier number', runs };
  writeBenchResult('ingest', result);
  return result;
}
