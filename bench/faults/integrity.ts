// The fault suite's integrity case: a store that fails verification is refused. Two copies of a corpus are damaged on
// disk the way a failing disk or an interrupted copy does it, then the compiled service (node dist/src/cli.js) is run
// on each: over 256 KiB garbled in the middle of data.mdb it must answer health 503 and refuse valuations with
// snapshot_unverified (and `avm verify` must fail); over a data.mdb cut to half it must exit non-zero with one line,
// never die of SIGBUS.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchCorpus } from '../bench-corpus.js';
import { CLI, CLOSED_OPENDATA_URL, freePort, waitAnswering } from '../server-support.js';
import { dataFileOf, garbleMiddle, truncateHalf } from './damage.js';

export type IntegrityFaultResult = {
  garbled: { health_status: number; health_ok: boolean; underwrite_status: number; underwrite_code: string | null; verify_exit: number | null; verify_failures: string[] };
  truncated: { serve_exit: number | null; serve_signal: string | null; stderr_lines: string[] };
  /** Both damaged stores were refused: nothing served from the garbled one, one clear line and a non-zero exit for the truncated one. */
  refused: boolean;
};

type Exit = { code: number | null; signal: string | null; stderr: string };

function cli(args: string[], dataDir: string, extraEnv: Record<string, string> = {}): { child: ChildProcess; exit: Promise<Exit> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, AVM_DATA_DIR: dataDir, HOST: '127.0.0.1', AVM_LOG_LEVEL: 'error', AVM_BACKGROUND_JOBS: 'false', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL, ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<Exit>((r) => child.once('close', (code, signal) => r({ code, signal, stderr })));
  return { child, exit };
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

async function serveGarbled(dataDir: string): Promise<IntegrityFaultResult['garbled']> {
  const port = await freePort();
  const { child, exit } = cli(['serve'], dataDir, { PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  try {
    const health = await waitAnswering(url, child, 60_000);
    const underwrite = await fetch(`${url}/api/underwrite?lat=41.88&lon=-87.7&price=300000&units=2`);
    const body = (await underwrite.json()) as { error?: { code?: string } };
    const verify = await cli(['verify'], dataDir).exit;
    return {
      health_status: health.status, health_ok: ((await health.json()) as { ok: boolean }).ok,
      underwrite_status: underwrite.status, underwrite_code: body.error?.code ?? null,
      verify_exit: verify.code, verify_failures: lines(verify.stderr),
    };
  } finally {
    child.kill('SIGTERM');
    await exit;
  }
}

/** Runs on copies of `dataDir` (default: a freshly generated test-scale corpus); the given folder is never touched. */
export async function runIntegrityFault(opts: { dataDir?: string } = {}): Promise<IntegrityFaultResult> {
  const corpus = opts.dataDir ? null : await benchCorpus(undefined, 'test');
  const source = opts.dataDir ?? corpus!.dir;
  const work = mkdtempSync(join(tmpdir(), 'avm-integrity-fault-'));
  try {
    const [garbledDir, truncatedDir] = [join(work, 'garbled'), join(work, 'truncated')];
    for (const d of [garbledDir, truncatedDir]) cpSync(source, d, { recursive: true });
    garbleMiddle(dataFileOf(garbledDir));
    truncateHalf(dataFileOf(truncatedDir));
    const garbled = await serveGarbled(garbledDir);
    const t = await cli(['serve'], truncatedDir, { PORT: String(await freePort()) }).exit;
    const truncated = { serve_exit: t.code, serve_signal: t.signal, stderr_lines: lines(t.stderr) };
    const refused =
      garbled.health_status === 503 && !garbled.health_ok && garbled.underwrite_status === 503 && garbled.underwrite_code === 'snapshot_unverified' &&
      garbled.verify_exit === 1 && truncated.serve_exit !== 0 && truncated.serve_exit !== null && truncated.stderr_lines.length === 1;
    return { garbled, truncated, refused };
  } finally {
    rmSync(work, { recursive: true, force: true });
    corpus?.cleanup();
  }
}
