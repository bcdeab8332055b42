// Corpus for the listings-run and score-all benchmarks: the one given (opts.dataDir or AVM_BENCH_DATA_DIR, copied
// nowhere: these benches write listings and results into it), else a freshly generated one at the asked scale.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCorpus } from '../src/ingest/generate/generate.js';
import { ingestAll } from '../src/ingest/ingest.js';
import { hasCorpus } from '../src/store/store.js';

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
