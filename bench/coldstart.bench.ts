// Service start-up time: the first start (generates and ingests the default corpus) and a restart on the stored
// corpus, each measured from process spawn until GET /api/health answers ok. Target for the restart: < 3 s.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeBenchResult } from './results-file.js';

const ROOT = resolve(new URL('.', import.meta.url).pathname, import.meta.url.includes('/dist/') ? '../..' : '..');
const CLI = join(ROOT, 'dist', 'src', 'cli.js');

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? res(addr.port) : rej(new Error('no port'))));
    });
  });
}

async function waitHealthy(port: number, child: ChildProcess, limitMs: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < limitMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (r.ok && ((await r.json()) as { ok: boolean }).ok) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not healthy within ${limitMs} ms`);
}

async function timeStart(dataDir: string, limitMs: number): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, AVM_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', AVM_LOG_LEVEL: 'error', AVM_OPENDATA_BASE_URL: 'http://127.0.0.1:1/resource' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const t1 = await waitHealthy(port, child, limitMs);
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
