// Fuzz suite over both doors (issue 13): thousands of generated requests per door (bench/fuzz: path spellings, nesting
// depth, unicode, huge numbers and strings, wrong types, extra keys, other owners' ids) against the service started
// in this process over the test-scale corpus, with an anonymous limit high enough not to mask the answers. Target:
// 0 5xx (none logged either), no request unanswered, every 4xx with a taxonomy code. Writes bench/results/fuzz.json.
// `npm run bench -- fuzz`; FUZZ_CASES (per door) and FUZZ_SEED change the run.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLimiter } from '../src/auth/limiter.js';
import { openKeyStore } from '../src/auth/keys.js';
import { loadConfig } from '../src/config.js';
import { generateCorpus } from '../src/ingest/generate/generate.js';
import { ingestAll } from '../src/ingest/ingest.js';
import { startService } from '../src/server.js';
import { closeClient } from './fuzz/http-client.js';
import { prepareTarget, runFuzz, type FuzzStats } from './fuzz/run.js';
import { writeBenchResult } from './results-file.js';
import { CLOSED_OPENDATA_URL } from './server-support.js';

const CASES_PER_DOOR = Number(process.env.FUZZ_CASES ?? 2_500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261313);
const TARGET = { cases_per_door_min: 2_000, five_xx: 0, failures: 0, error_log_lines: 0 };

export async function run(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'avm-fuzz-'));
  const secret = randomBytes(24).toString('hex');
  try {
    await generateCorpus({ seed: 7, scale: 'test', outDir: dataDir });
    await ingestAll({ dataDir, rawDir: join(dataDir, 'raw') });
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', AVM_DATA_DIR: dataDir, AVM_LOG_LEVEL: 'error', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL, AVM_BACKGROUND_JOBS: 'false', WRITE_SECRET: secret });
    const service = await startService(config, { installSignalHandlers: false, limiter: createLimiter({ anonLimit: 1_000_000 }) });
    // Every 5xx is logged as an error (src/http/errors.ts); count what is logged while fuzzing.
    const logError = service.svc.log.error;
    let errorLogLines = 0;
    service.svc.log.error = (msg, extra) => {
      errorLogLines++;
      logError(msg, extra);
    };
    try {
      const keys = openKeyStore(service.svc.store.env);
      const target = await prepareTarget({ port: service.port, mint: async (scopes) => (await keys.createKey({ scopes, rpmLimit: 100_000 })).plaintext, operatorSecret: secret });
      const doors: FuzzStats[] = [];
      const load0 = loadavg()[0];
      for (const door of ['rest', 'mcp'] as const) {
        process.stderr.write(`fuzzing the ${door} door: ${CASES_PER_DOOR} cases, seed ${SEED}\n`);
        doors.push(await runFuzz(target, door, CASES_PER_DOOR, SEED));
      }
      const fiveXx = doors.reduce((n, d) => n + Object.entries(d.statuses).filter(([s]) => Number(s) >= 500).reduce((m, [, c]) => m + c, 0), 0);
      const failures = doors.reduce((n, d) => n + d.failure_count, 0);
      const result = {
        command: 'npm run bench -- fuzz',
        seed: SEED,
        cases_per_door: CASES_PER_DOOR,
        doors: doors.map((d) => ({ ...d, cases_per_sec: +(d.cases / (d.ms / 1000)).toFixed(1) })),
        five_xx: fiveXx,
        failures,
        error_log_lines: errorLogLines,
        load_average_1m: { before: +load0.toFixed(2), after: +loadavg()[0].toFixed(2) },
        target: TARGET,
        meets_target: CASES_PER_DOOR >= TARGET.cases_per_door_min && fiveXx === 0 && failures === 0 && errorLogLines === 0,
      };
      writeBenchResult('fuzz', result);
      return result;
    } finally {
      closeClient();
      await service.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
