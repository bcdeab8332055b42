// The corpus jobs behind `avm generate`, `avm ingest` and first start: generate the synthetic raw files, then ingest
// them into LMDB. Ground truth goes to <data dir>/truth and is never read here. The generator and loaders are imported
// lazily: a restart on a stored corpus must not pay for loading them.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { createProgress } from '../progress.js';
import { CCAO_SALES, RAW_DIR } from './layouts.js';

export async function runGenerate(config: Config, opts: { seed: number; scale: 'default' | 'county' }): Promise<void> {
  const { generateCorpus } = await import('./generate/generate.js');
  const progress = createProgress('generate');
  const t0 = performance.now();
  try {
    const out = await generateCorpus({ seed: opts.seed, scale: opts.scale, outDir: config.dataDir, onProgress: progress.update });
    progress.stop();
    process.stderr.write(`generated ${opts.scale} corpus (seed ${opts.seed}, ${out.vintage}) in ${((performance.now() - t0) / 1000).toFixed(1)} s into ${config.dataDir}\n`);
    process.stderr.write(`${JSON.stringify(out.counts)}\n`);
  } finally {
    progress.stop();
  }
}

export async function runIngest(config: Config, rawDir?: string): Promise<string> {
  const { ingestAll } = await import('./ingest.js');
  const progress = createProgress('ingest');
  const t0 = performance.now();
  try {
    const out = await ingestAll({ dataDir: config.dataDir, rawDir: rawDir ?? join(config.dataDir, RAW_DIR), onProgress: progress.update });
    progress.stop();
    process.stderr.write(`ingested snapshot ${out.snapshotId} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const c = out.condition;
    const cut = c.cutAnchoredOn > 0 ? `renovated cut ${c.renovatedCut.toFixed(3)} anchored on ${c.cutAnchoredOn} resale legs` : `renovated cut ${c.renovatedCut} (fixed)`;
    process.stderr.write(`condition by source: ${Object.entries(c.bySource).map(([k, n]) => `${k} ${n}`).join(', ')}; ${cut}\n`);
    return out.snapshotId;
  } finally {
    progress.stop();
  }
}

/** Runs one `avm` command in a child process with the same data folder; its output goes to this process's stderr. */
function runCliJob(config: Config, command: string): void {
  const cli = join(config.rootDir, 'dist', 'src', 'cli.js');
  execFileSync(process.execPath, [cli, command, '--data-dir', config.dataDir], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * First start: generate the default corpus when no raw files exist, ingest it, then fit the Tier-2 hedonic model and
 * run the calibration backtest, so the first valuations served are calibrated (without a calibration table every
 * Tier-1 answer is range-only). The calibration here writes no report file and never reads the ground truth; it
 * stores its report (without the report-only parts) beside its table for GET /model.
 */
export async function ensureCorpus(config: Config, hasSnapshot: boolean): Promise<void> {
  if (hasSnapshot) return;
  if (!existsSync(join(config.dataDir, RAW_DIR, CCAO_SALES.file))) await runGenerate(config, { seed: config.seed, scale: 'default' });
  await runIngest(config);
  const t0 = performance.now();
  // Separate processes: the serving process never loads the calibration job (its report path reads ground truth).
  for (const job of ['fit-hedonic', 'calibrate']) runCliJob(config, job);
  process.stderr.write(`fitted hedonic_v1 and calibrated in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}
