// `avm score-all` throughput: every parcel of the corpus (or an evenly spaced sample: opts.limit or
// AVM_BENCH_SCORE_ALL_LIMIT) valued and scored through the worker pool; wall time, valuations/s, and the time the
// county-scale parcel count would take at the measured rate. Target: every county-scale parcel in < 120 s.
import { loadConfig } from '../src/config.js';
import { GENERATOR } from '../src/registry/groups/generator.js';
import { scoreAll } from '../src/listings/score-all.js';
import { poolScorer } from '../src/listings/scorer.js';
import { openStore } from '../src/store/store.js';
import { benchCorpus } from './bench-corpus.js';
import { writeBenchResult } from './results-file.js';

export async function run(opts: { dataDir?: string; scale?: 'test' | 'default' | 'county'; limit?: number } = {}): Promise<Record<string, unknown>> {
  const scale = opts.scale ?? ((process.env.AVM_BENCH_SCALE as 'test' | 'default' | 'county' | undefined) ?? 'default');
  const limitEnv = process.env.AVM_BENCH_SCORE_ALL_LIMIT ? Number(process.env.AVM_BENCH_SCORE_ALL_LIMIT) : undefined;
  const corpus = await benchCorpus(opts.dataDir ?? process.env.AVM_BENCH_DATA_DIR, scale);
  const config = loadConfig({ ...process.env, AVM_DATA_DIR: corpus.dir, AVM_LOG_LEVEL: 'silent' });
  const store = openStore(corpus.dir);
  try {
    const t0 = performance.now();
    const scorer = await poolScorer(store, config);
    const poolStartMs = performance.now() - t0;
    try {
      const s = await scoreAll(store, scorer, { limit: opts.limit ?? limitEnv });
      const countyParcels = GENERATOR.v.scale_parcels[2];
      const countyProjectedS = Math.round(countyParcels / s.valuations_per_s);
      const result = {
        command: 'npm run bench -- score-all',
        corpus: corpus.label,
        workers: config.workers,
        sampled: s.parcels < s.total_parcels,
        ...s,
        pool_start_ms: Math.round(poolStartMs),
        county_scale_parcels: countyParcels,
        county_scale_projected_s: countyProjectedS,
        target_county_s: 120,
        within_target: countyProjectedS < 120,
      };
      writeBenchResult('score-all', result);
      return result;
    } finally {
      await scorer.close();
    }
  } finally {
    await store.close();
    corpus.cleanup();
  }
}
