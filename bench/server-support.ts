// What the benchmarks that start the real service share: the compiled CLI path and a way to run it, a free loopback
// port, and a wait until GET /api/health answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT_DIR } from '../src/config.js';

export const CLI = join(ROOT_DIR, 'dist', 'src', 'cli.js');
/** A closed loopback port: benchmarks never let the open-data comp fallback leave the machine. */
export const CLOSED_OPENDATA_URL = 'http://127.0.0.1:1/resource';

/** The non-empty lines of `text` (a child's stderr, say). */
export const linesOf = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

export type CliExit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * `node dist/src/cli.js ...args` in a child process, quiet, on loopback, with no background jobs and the open-data
 * fallback closed, plus `env`; `exit` resolves with its status and output once it has exited.
 */
export function spawnCli(args: string[], env: Record<string, string> = {}): { child: ChildProcess; exit: Promise<CliExit> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, HOST: '127.0.0.1', AVM_LOG_LEVEL: 'error', AVM_BACKGROUND_JOBS: 'false', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<CliExit>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, exit };
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? res(addr.port) : rej(new Error('no port'))));
    });
  });
}

/** The first GET /api/health answer `accept` takes; rejects if the child exits or the limit passes. */
async function pollHealth(base: string, child: ChildProcess, limitMs: number, accept: (r: Response) => Promise<boolean>): Promise<Response> {
  const t0 = performance.now();
  while (performance.now() - t0 < limitMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${base}/api/health`);
      if (await accept(r)) return r;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`service did not answer as expected within ${limitMs} ms`);
}

/** The first answer of GET /api/health, whatever its status (its body unread). */
export const waitAnswering = (base: string, child: ChildProcess, limitMs: number): Promise<Response> => pollHealth(base, child, limitMs, async () => true);

/** Resolves with performance.now() at the first ok health answer; rejects if the child exits or the limit passes. */
export async function waitHealthy(base: string, child: ChildProcess, limitMs: number): Promise<number> {
  await pollHealth(base, child, limitMs, async (r) => r.ok && ((await r.json()) as { ok: boolean }).ok);
  return performance.now();
}

/** CPU time (user + system, ms) a process has used: all its threads, or only its main thread; null off Linux. */
export function processCpuMs(pid: number, mainThreadOnly = false): number | null {
  try {
    const stat = readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    // fields after the parenthesised command: utime and stime are the 12th and 13th, in clock ticks (USER_HZ = 100)
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}
