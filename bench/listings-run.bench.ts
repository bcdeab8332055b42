// The daily listings run (≤ 200 listings): pool start-up (threads, kernels and each worker's valuation context), then
// runs through the worker pool with one task per batch. Target: a run < 1 s after start-up.
import { runListingsOnce } from '../src/listings/run.js';
import { withPoolBench, type BenchScale } from './bench-corpus.js';
import { writeBenchResult } from './results-file.js';

/** The performance target in the header: a warm listings run under this many milliseconds. */
const TARGET_RUN_MS = 1000;

export async function run(opts: { dataDir?: string; scale?: BenchScale; warmRuns?: number } = {}): Promise<Record<string, unknown>> {
  return withPoolBench(opts, {}, async ({ corpus, config, store, scorer, poolStartMs }) => {
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
      target_run_ms_after_startup: TARGET_RUN_MS,
      within_target: median < TARGET_RUN_MS,
    };
    writeBenchResult('listings-run', result);
    return result;
  });
}
