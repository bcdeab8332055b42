// The `avm` command through the compiled CLI: --version, --data-dir on every command, and one line (no stack trace)
// for what an operator must fix: a taken port, a bad environment value.
import { createServer, type Server } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataFileOf, truncateHalf } from '../../bench/faults/damage.js';
import { ROOT_DIR } from '../../src/config.js';
import { MODEL_VERSION } from '../../src/registry/versions.js';
import { linesOf, runCli } from '../support/cli.js';
import { cleanupCopies, copyOfSmallCorpus } from '../support/corpus-copy.js';

afterAll(cleanupCopies);

const NO_STACK = /^\s+at /m;

describe('avm --version', () => {
  it('prints the package version and the model version on one line', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string };
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`avm ${version} (model ${MODEL_VERSION})\n`);
  });
});

describe('avm <command> --data-dir DIR', () => {
  const leafCommands = [
    ['generate'], ['ingest'], ['run-listings'], ['score-all'], ['calibrate'], ['fit-hedonic'], ['serve'], ['verify'],
    ['alerts', 'dead-letters'], ['alerts', 'replay'], ['keys', 'create'], ['keys', 'rotate'], ['keys', 'revoke'], ['keys', 'list'], ['backtest'], ['worker'], ['publish-snapshot'],
  ];

  it('every command lists the option in its help', async () => {
    const runs = await Promise.all(leafCommands.map((c) => runCli([...c, '--help'])));
    expect(leafCommands.filter((_, i) => !runs[i].stdout.includes('--data-dir <dir>'))).toEqual([]);
  });

  it.each([[['serve']], [['alerts', 'dead-letters']], [['alerts', 'replay', 'a-1']]])('%j opens the store it names (a truncated one there is refused by its path)', async (command) => {
    const dir = await copyOfSmallCorpus();
    truncateHalf(dataFileOf(dir));
    const run = await runCli([...command, '--data-dir', dir], { PORT: '0' });
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([expect.stringMatching(/^avm: store_damaged: /)]);
    expect(run.stderr).toContain(`${dataFileOf(dir)} is truncated`);
  });
});

describe('avm serve when it cannot start', () => {
  let holder: Server | null = null;
  afterAll(() => new Promise<void>((r) => (holder ? holder.close(() => r()) : r())));

  it('names the taken address in one line and exits 1 (EADDRINUSE)', async () => {
    const dir = await copyOfSmallCorpus();
    holder = createServer();
    const port = await new Promise<number>((r) => holder!.listen(0, '127.0.0.1', () => r((holder!.address() as { port: number }).port)));
    const run = await runCli(['serve', '--data-dir', dir], { HOST: '127.0.0.1', PORT: String(port) });
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([`avm: cannot listen on 127.0.0.1:${port}: the address is already in use (another process listens there; stop it or set PORT) (EADDRINUSE)`]);
  });

  it.each([
    ['PORT', 'eighty', /^avm: invalid environment: PORT: /],
    ['AVM_WORKERS', '0', /^avm: invalid environment: AVM_WORKERS: /],
    ['AVM_LOG_LEVEL', 'loud', /^avm: invalid environment: AVM_LOG_LEVEL: /],
  ])('a bad %s (%s) is one line naming the variable, exit 1', async (name, value, line) => {
    const run = await runCli(['serve'], { [name]: value });
    expect(run.code).toBe(1);
    const lines = linesOf(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(run.stderr).not.toMatch(NO_STACK);
  });
});
