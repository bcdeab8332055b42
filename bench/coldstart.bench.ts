// Service start-up time: the first start (generates and ingests the default corpus) and a restart on the stored
// corpus, each measured from process spawn until GET /api/health answers ok. Target for the restart: < 3 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBenchResult } from './results-file.js';
import { CLI, CLOSED_OPENDATA_URL, freePort, waitHealthy } from './server-support.js';

async function timeStart(dataDir: string, limitMs: number): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, AVM_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', AVM_LOG_LEVEL: 'error', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const t1 = await waitHealthy(`http://127.0.0.1:${port}`, child, limitMs);
    return t1 - t0;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'avm-coldstart-'));
  try {
    const firstStartMs = await timeStart(dataDir, 180_000);
    const restarts: number[] = [];
    for (let i = 0; i < 3; i++) restarts.push(await timeStart(dataDir, 30_000));
    restarts.sort((a, b) => a - b);
    const result = {
      command: 'npm run bench -- coldstart',
      first_start_ms: Math.round(firstStartMs),
      restart_ms_median: Math.round(restarts[1]),
      restart_ms_all: restarts.map(Math.round),
      target_restart_ms: 3000,
      restart_within_target: restarts[1] < 3000,
    };
    writeBenchResult('coldstart', result);
    return result;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
