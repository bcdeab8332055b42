// `avm calibrate --report --html FILE` through the compiled CLI on a copy of the test-scale corpus: writes one
// self-contained page and prints where; `--html` without `--report` is one line and exit 1 before any work.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../src/config.js';
import { linesOf, runCli } from '../support/cli.js';
import { cleanupCopies, copyOfSmallCorpus } from '../support/corpus-copy.js';
import { markupProblems } from '../support/markup.js';

// --report writes bench/results/calibration.json, a committed benchmark result: put its bytes back afterwards.
const RESULTS = join(ROOT_DIR, 'bench', 'results', 'calibration.json');
let saved: Buffer | null = null;
const out = mkdtempSync(join(tmpdir(), 'avm-html-'));

beforeAll(() => {
  saved = existsSync(RESULTS) ? readFileSync(RESULTS) : null;
});

afterAll(() => {
  if (saved) writeFileSync(RESULTS, saved);
  else rmSync(RESULTS, { force: true });
  rmSync(out, { recursive: true, force: true });
  cleanupCopies();
});

describe('avm calibrate --html', () => {
  it('without --report is one line naming the fix, exit 1, and writes nothing', async () => {
    const file = join(out, 'alone.html');
    const run = await runCli(['calibrate', '--html', file, '--data-dir', join(out, 'no-store')]);
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual(['avm: validation_failed: --html FILE needs --report (the page renders the report): run `avm calibrate --report --html FILE`']);
    expect(existsSync(file)).toBe(false);
  });

  it('with --report writes the page (creating its folder) and prints its path', async () => {
    const dir = await copyOfSmallCorpus();
    const file = join(out, 'nested', 'report.html');
    const run = await runCli(['calibrate', '--report', '--html', file, '--data-dir', dir], {}, 240_000);
    expect(run.code, run.stderr).toBe(0);
    expect(linesOf(run.stdout).at(-1)).toBe(`HTML report written to ${file}`);
    const html = readFileSync(file, 'utf8');
    for (const id of ['summary', 'reliability', 'coverage', 'errors', 'baselines', 'tier2-rent', 'gates']) expect(html).toContain(`<section id="${id}">`);
    // The test corpus has calibrated rows and truth: the reliability plot and the oracle are drawn from real figures.
    expect(html).toContain('aria-label="Reliability of confidence_p10"');
    expect(html).toMatch(/class="bin-dot"/);
    expect(html).toMatch(/oracle \d+\.\d%/);
    expect(html).toMatch(/Tier 2 \(hedonic_v1-/);
    expect(markupProblems(html, ['meta'])).toEqual([]);
    const calibrationJson = JSON.parse(readFileSync(RESULTS, 'utf8')) as { figures?: { reliability: { nRated: number } } };
    expect(calibrationJson.figures?.reliability.nRated).toBeGreaterThan(0);
  }, 300_000);

  it('a path that is a directory is refused before any work', async () => {
    const run = await runCli(['calibrate', '--report', '--html', out, '--data-dir', join(out, 'no-store')]);
    expect(run.code).toBe(1);
    expect(linesOf(run.stderr)).toEqual([`avm: validation_failed: --html ${out} is a directory; give a file path`]);
  });
});
