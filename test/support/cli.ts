// The real `avm` command as an operator runs it: the compiled CLI in a child process (`npm test` builds it first).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT_DIR } from '../../src/config.js';
import { CLOSED_OPENDATA_URL } from './corpus.js';

export const CLI_PATH = join(ROOT_DIR, 'dist', 'src', 'cli.js');

export type CliRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs `node dist/src/cli.js ...args` with the test environment plus `env`; resolves when it exits (or is killed at `timeoutMs`). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: { ...process.env, AVM_LOG_LEVEL: 'error', AVM_BACKGROUND_JOBS: 'false', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The non-empty lines of `text`. */
export const linesOf = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');
