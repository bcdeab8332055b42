// The fault suite's integrity case: a store that fails verification is refused. Two copies of a corpus are damaged on
// disk the way a failing disk or an interrupted copy does it, then the compiled service (node dist/src/cli.js) is run
// on each: over 256 KiB garbled in the middle of data.mdb it must answer health 503 and refuse valuations with
// snapshot_unverified (and `avm verify` must fail); over a data.mdb cut to half it must exit non-zero with one line,
// never die of SIGBUS.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchCorpus } from '../bench-corpus.js';
import { freePort, linesOf, spawnCli, waitAnswering } from '../server-support.js';
import { dataFileOf, garbleMiddle, truncateHalf } from './damage.js';

export type IntegrityFaultResult = {
  garbled: { health_status: number; health_ok: boolean; underwrite_status: number; underwrite_code: string | null; verify_exit: number | null; verify_failures: string[] };
  truncated: { serve_exit: number | null; serve_signal: string | null; stderr_lines: string[] };
  /** Both damaged stores were refused: nothing served from the garbled one, one clear line and a non-zero exit for the truncated one. */
  refused: boolean;
};

async function serveGarbled(dataDir: string): Promise<IntegrityFaultResult['garbled']> {
  const port = await freePort();
  const { child, exit } = spawnCli(['serve'], { AVM_DATA_DIR: dataDir, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  try {
    const health = await waitAnswering(url, child, 60_000);
    const underwrite = await fetch(`${url}/api/underwrite?lat=41.88&lon=-87.7&price=300000&units=2`);
    const body = (await underwrite.json()) as { error?: { code?: string } };
    const verify = await spawnCli(['verify'], { AVM_DATA_DIR: dataDir }).exit;
    return {
      health_status: health.status, health_ok: ((await health.json()) as { ok: boolean }).ok,
      underwrite_status: underwrite.status, underwrite_code: body.error?.code ?? null,
      verify_exit: verify.code, verify_failures: linesOf(verify.stderr),
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
    const t = await spawnCli(['serve'], { AVM_DATA_DIR: truncatedDir, PORT: String(await freePort()) }).exit;
    const truncated = { serve_exit: t.code, serve_signal: t.signal, stderr_lines: linesOf(t.stderr) };
    const refused =
      garbled.health_status === 503 && !garbled.health_ok && garbled.underwrite_status === 503 && garbled.underwrite_code === 'snapshot_unverified' &&
      garbled.verify_exit === 1 && truncated.serve_exit !== 0 && truncated.serve_exit !== null && truncated.stderr_lines.length === 1;
    return { garbled, truncated, refused };
  } finally {
    rmSync(work, { recursive: true, force: true });
    corpus?.cleanup();
  }
}
