// `avm verify` and `avm serve` on a damaged store, through the compiled CLI: exit 0 and one summary line when the
// store is whole; non-zero and one line per failure when 256 KiB are garbled in data.mdb or the file is cut short,
// never a "Bus error" or a stack trace.
import { afterAll, describe, expect, it } from 'vitest';
import { dataFileOf, garbleMiddle, truncateHalf } from '../../bench/faults/damage.js';
import { linesOf, runCli } from '../support/cli.js';
import { cleanupCopies, copyOfSmallCorpus } from '../support/corpus-copy.js';

afterAll(cleanupCopies);

describe('avm verify --data-dir DIR', () => {
  it('exits 0 with one summary line on an intact store', async () => {
    const dir = await copyOfSmallCorpus();
    const run = await runCli(['verify', '--data-dir', dir]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(linesOf(run.stdout)).toHaveLength(1);
    expect(run.stdout).toMatch(/^avm verify: ok — .*data\.mdb: \d+ bytes, \d+ pages of 4096 B in use; 1 snapshot\(s\) match their recorded sha256/);
  });

  it('exits 1 naming the snapshot whose bytes no longer match when 256 KiB in the middle of data.mdb are garbled', async () => {
    const dir = await copyOfSmallCorpus();
    garbleMiddle(dataFileOf(dir));
    const run = await runCli(['verify', '--data-dir', dir]);
    expect(run.code).toBe(1);
    const lines = linesOf(run.stderr);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.every((l) => l.startsWith('avm verify: FAIL '))).toBe(true);
    expect(lines.join('\n')).toMatch(/snapshot s-\d{6}-[0-9a-f]{12} fails verification: (sales|parcels) sha256 [0-9a-f]{12}… ≠ recorded [0-9a-f]{12}…/);
    expect(run.stdout).toBe('');
  });

  it('exits 0 again once avm ingest of the same raw files replaces the garbled snapshot (a new id; the damaged one dropped)', async () => {
    const dir = await copyOfSmallCorpus();
    garbleMiddle(dataFileOf(dir));
    const damagedId = /snapshot (s-\d{6}-[0-9a-f]{12}) fails verification/.exec((await runCli(['verify', '--data-dir', dir])).stderr)![1];
    const ingest = await runCli(['ingest', '--data-dir', dir]);
    expect(ingest.code).toBe(0);
    const run = await runCli(['verify', '--data-dir', dir]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/1 snapshot\(s\) match their recorded sha256 \(current s-\d{6}-/);
    expect(run.stdout).not.toContain(damagedId);
  });

  it('exits 1 with one line when data.mdb is truncated', async () => {
    const dir = await copyOfSmallCorpus();
    truncateHalf(dataFileOf(dir));
    const run = await runCli(['verify', '--data-dir', dir]);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 1, signal: null });
    expect(linesOf(run.stderr)).toEqual([expect.stringMatching(/^avm verify: FAIL .*data\.mdb is truncated: \d+ bytes, its header records \d+ pages/)]);
  });
});

describe('avm serve on a truncated data.mdb', () => {
  it('prints one store_damaged line and exits 1 instead of dying of SIGBUS', async () => {
    const dir = await copyOfSmallCorpus();
    truncateHalf(dataFileOf(dir));
    const run = await runCli(['serve'], { AVM_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1' });
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 1, signal: null });
    expect(linesOf(run.stderr)).toEqual([expect.stringMatching(/^avm: store_damaged: .*data\.mdb is truncated: /)]);
  });
});
