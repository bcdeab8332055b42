// Benchmark corpus: the one given (opts.dataDir or AVM_BENCH_DATA_DIR, copied nowhere: these benches write listings and
// results into it), else a freshly generated one at the asked scale; and the store + worker pool listings-run and score-all share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../src/config.js';
import { generateCorpus } from '../src/ingest/generate/generate.js';
import { ingestAll } from '../src/ingest/ingest.js';
import { poolScorer, type BatchScorer } from '../src/scoring/scorer.js';
import { hasCorpus, openStore, type Store } from '../src/store/store.js';

export type BenchCorpus = { dir: string; label: string; prepareMs: number; cleanup: () => void };

export async function benchCorpus(given: string | undefined, scale: 'test' | 'default' | 'county'): Promise<BenchCorpus> {
  if (given) {
    if (!hasCorpus(given)) throw new Error(`${given} holds no ingested corpus`);
    return { dir: given, label: given, prepareMs: 0, cleanup: () => undefined };
  }
  const t0 = performance.now();
  const dir = mkdtempSync(join(tmpdir(), `avm-bench-${scale}-`));
  await generateCorpus({ seed: 20261121, scale, outDir: dir });
  await ingestAll({ dataDir: dir, rawDir: join(dir, 'raw') });
  return { dir, label: `${scale} (generated, seed 20261121)`, prepareMs: Math.round(performance.now() - t0), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export type BenchScale = 'test' | 'default' | 'county';
export type PoolBench = { corpus: BenchCorpus; config: Config; store: Store; scorer: BatchScorer; poolStartMs: number };

/**
 * The listings-run and score-all set-up: the corpus (opts or AVM_BENCH_DATA_DIR / AVM_BENCH_SCALE), its store and a
 * worker pool over it (start-up timed), handed to `fn`; pool, store and a generated corpus are closed afterwards.
 */
export async function withPoolBench<T>(opts: { dataDir?: string; scale?: BenchScale }, poolOpts: { warmLookups?: boolean }, fn: (b: PoolBench) => Promise<T>): Promise<T> {
  const scale = opts.scale ?? ((process.env.AVM_BENCH_SCALE as BenchScale | undefined) ?? 'default');
  const corpus = await benchCorpus(opts.dataDir ?? process.env.AVM_BENCH_DATA_DIR, scale);
  const config = loadConfig({ ...process.env, AVM_DATA_DIR: corpus.dir, AVM_LOG_LEVEL: 'silent' });
  const store = openStore(corpus.dir);
  try {
    const t0 = performance.now();
    const scorer = await poolScorer(store, config, poolOpts);
    const poolStartMs = performance.now() - t0;
    try {
      return await fn({ corpus, config, store, scorer, poolStartMs });
    } finally {
      await scorer.close();
    }
  } finally {
    await store.close();
    corpus.cleanup();
  }
}
