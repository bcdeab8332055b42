// Shared test fixture: one small generated + ingested corpus per test process, in a temp folder.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { generateCorpus } from '../../src/ingest/generate/generate.js';
import { ingestAll } from '../../src/ingest/ingest.js';
import { laneEnv } from './pg-lane.js';

let prepared: Promise<string> | null = null;

/** A data dir holding the `test`-scale corpus (seed 7), generated and ingested once per process. */
export function smallCorpusDir(): Promise<string> {
  prepared ??= (async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'avm-test-corpus-'));
    await generateCorpus({ seed: 7, scale: 'test', outDir: dataDir });
    await ingestAll({ dataDir, rawDir: join(dataDir, 'raw') });
    return dataDir;
  })();
  return prepared;
}

/** A closed loopback port: the open-data comp fallback fails fast here instead of reaching the internet. */
export const CLOSED_OPENDATA_URL = 'http://127.0.0.1:1/resource';

/**
 * A Config for tests: loopback, port 0, quiet log, the given data dir, open data on loopback only, no background jobs;
 * on the PostgreSQL lane (pg-lane.ts) the data dir's state database.
 */
export function testConfig(dataDir: string, extra: Record<string, string> = {}): Config {
  return loadConfig({ HOST: '127.0.0.1', PORT: '0', AVM_DATA_DIR: dataDir, AVM_LOG_LEVEL: 'silent', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL, AVM_BACKGROUND_JOBS: 'false', ...laneEnv(dataDir, extra), ...extra });
}

let preparedDefault: Promise<string> | null = null;

/**
 * The default-scale corpus (seed 20261121) prepared as a first start prepares it: generated, ingested, the Tier-2 model
 * fitted and the intervals calibrated through the model registry's gates (about half a minute). For tests that need
 * what only a realistic market gives: listings valued as points, scored and ranked.
 */
export function defaultCorpusDir(): Promise<string> {
  preparedDefault ??= (async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'avm-test-default-'));
    await generateCorpus({ seed: 20261121, scale: 'default', outDir: dataDir });
    await ingestAll({ dataDir, rawDir: join(dataDir, 'raw') });
    const [{ runFitHedonic }, { calibrate }, { openStore }] = await Promise.all([
      import('../../src/valuation/hedonic/job.js'), import('../../src/valuation/calibration/job.js'), import('../../src/store/store.js'),
    ]);
    await runFitHedonic({ dataDir });
    const store = openStore(dataDir);
    try {
      await calibrate(store, { dataDir, resultsDir: null, besideTier1: false });
    } finally {
      await store.close();
    }
    return dataDir;
  })();
  return preparedDefault;
}
