// The daily listings run (≤ 200 listings): pool start-up (threads, kernels and each worker's valuation context), then
// runs through the worker pool with one task per batch. Target: a run < 1 s after start-up.
import { loadConfig } from '../src/config.js';
import { runListingsOnce } from '../src/listings/run.js';
import { poolScorer } from '../src/listings/scorer.js';
import { openStore } from '../src/store/store.js';
import { benchCorpus } from './bench-corpus.js';
import { writeBenchResult } from './results-file.js';

export async function run(opts: { dataDir?: string; scale?: 'test' | 'default' | 'county'; warmRuns?: number } = {}): Promise<Record<string, unknown>> {
  const scale = opts.scale ?? ((process.env.AVM_BENCH_SCALE as 'test' | 'default' | 'county' | undefined) ?? 'default');
  const corpus = await benchCorpus(opts.dataDir ?? process.env.AVM_BENCH_DATA_DIR, scale);
  const config = loadConfig({ ...process.env, AVM_DATA_DIR: corpus.dir, AVM_LOG_LEVEL: 'silent' });
  const store = openStore(corpus.dir);
  try {
    const t0 = performance.now();
    const scorer = await poolScorer(store, config);
    const poolStartMs = performance.now() - t0;
    try {
      const first = await runListingsOnce({ store, scorer, kind: 'manual' });
      const warm: number[] = [];
      for (let i = 0; i < (opts.warmRuns ?? 5); i++) warm.push((await runListingsOnce({ store, scorer, kind: 'manual' })).wall_ms);
      warm.sort((a, b) => a - b);
      const median = warm[warm.length >> 1];
      const result = {
        command: 'npm run bench -- listings-run',
        corpus: corpus.label,
        workers: config.workers,
        listings_scored: first.active,
        duplicates_dropped: first.duplicates,
        scored_rows: first.scored,
        unscored_rows: first.unscored,
        pool_start_ms: Math.round(poolStartMs),
        first_run_ms: Math.round(first.wall_ms),
        warm_run_ms_median: Math.round(median),
        warm_run_ms_all: warm.map(Math.round),
        valuations_per_s_warm: Math.round((first.active / median) * 1000),
        target_run_ms_after_startup: 1000,
        within_target: median < 1000,
      };
      writeBenchResult('listings-run', result);
      return result;
    } finally {
      await scorer.close();
    }
  } finally {
    await store.close();
    corpus.cleanup();
  }
}
