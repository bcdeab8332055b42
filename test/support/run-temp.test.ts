// The suite's temporary folders live under one folder of the run (pg-lane-setup.ts), removed when the run ends: a test
// process and the child processes it starts see it as their temp folder, so no corpus or data dir outlives the run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallCorpusDir } from './corpus.js';

describe('the run temp folder', () => {
  it('holds every temp folder a test makes, the shared corpus included', async () => {
    const root = tmpdir();
    expect(basename(root)).toMatch(/^avm-vitest-/);
    expect(existsSync(root)).toBe(true);
    expect(dirname(mkdtempSync(join(tmpdir(), 'avm-check-')))).toBe(root);
    expect(dirname(await smallCorpusDir())).toBe(root);
  });

  it('is the temp folder of the child processes a test starts', () => {
    const childTmp = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { encoding: 'utf8' });
    expect(childTmp).toBe(tmpdir());
  });
});
