// `avm serve` as a real child process receiving SIGTERM with valuations in flight: every one is answered 200, then the
// process exits 0 having logged that it stopped. (Before the drain the requests were reset and the pool's tasks died
// as worker_crashed.)
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../src/config.js';
import { CLOSED_OPENDATA_URL, smallCorpusDir } from '../support/corpus.js';
import { getOutcome, keepAliveAgent } from '../support/http-client.js';
import { laneEnv } from '../support/pg-lane.js';

let child: ChildProcess | null = null;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
});

/** Starts `avm serve` on a free loopback port; resolves with its URL (from the log line announcing it) and its stderr. */
async function serveChild(dataDir: string): Promise<{ url: string; stderr: () => string; exited: Promise<{ code: number | null; signal: string | null }> }> {
  const env = { ...process.env, HOST: '127.0.0.1', PORT: '0', AVM_DATA_DIR: dataDir, AVM_WORKERS: '1', AVM_LOG_LEVEL: 'info', AVM_BACKGROUND_JOBS: 'false', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL, ...laneEnv(dataDir) };
  const proc = spawn(process.execPath, [join(ROOT_DIR, 'dist', 'src', 'cli.js'), 'serve'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  child = proc;
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(stderr);
      if (m) resolve(m[0]);
    });
    void exited.then(() => reject(new Error(`avm serve exited before listening:\n${stderr}`)));
  });
  return { url, stderr: () => stderr, exited };
}

describe('avm serve on SIGTERM', () => {
  it('answers every in-flight /api/underwrite 200, then exits 0', async () => {
    const served = await serveChild(await smallCorpusDir());
    const agent = keepAliveAgent();
    const inFlight = Array.from({ length: 4 }, (_, i) => getOutcome(`${served.url}/api/underwrite?lat=${41.8 + i * 0.01}&lon=-87.7&price=300000&units=2`, agent));
    await new Promise((r) => setTimeout(r, 300));
    child!.kill('SIGTERM');
    const outcomes = await Promise.all(inFlight);
    const exit = await served.exited;
    expect(outcomes.map((o) => ('error' in o ? o.error : o.status))).toEqual([200, 200, 200, 200]);
    expect(exit).toEqual({ code: 0, signal: null });
    const lines = served.stderr().trim().split('\n').map((l) => JSON.parse(l) as { msg: string; level: number });
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down', 'draining', 'stopped']));
    expect(served.stderr()).not.toMatch(/worker_crashed/);
    agent.destroy();
  }, 60_000);
});
