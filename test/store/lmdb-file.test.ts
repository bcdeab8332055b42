// checkLmdbFile / openEnv on a damaged data file: the header's page count against the file's size, read before LMDB
// maps the file (a truncated file used to kill the process with SIGBUS on the first read past its end).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataFileOf, truncateHalf } from '../../bench/faults/damage.js';
import { isAppError } from '../../src/errors/app-error.js';
import { openEnv } from '../../src/store/env.js';
import { checkLmdbFile } from '../../src/store/lmdb-file.js';
import { cleanupCopies, copyOfSmallCorpus } from '../support/corpus-copy.js';

afterAll(cleanupCopies);

describe('checkLmdbFile(file)', () => {
  it('reads the page size and last page LMDB itself reports, and finds an intact file whole', async () => {
    const dir = await copyOfSmallCorpus();
    const env = openEnv(dir);
    const stats = env.getStats() as { pageSize: number; lastPageNumber: number };
    await env.close();
    const check = checkLmdbFile(dataFileOf(dir));
    expect(check).toMatchObject({ ok: true, pageSize: stats.pageSize, lastPage: stats.lastPageNumber });
    expect(check.fileBytes).toBeGreaterThanOrEqual((stats.lastPageNumber + 1) * stats.pageSize);
  });

  it('finds a file cut to half its size truncated, naming both sizes', async () => {
    const dir = await copyOfSmallCorpus();
    const half = truncateHalf(dataFileOf(dir));
    const check = checkLmdbFile(dataFileOf(dir));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(new RegExp(`is truncated: ${half} bytes, its header records \\d+ pages of 4096 B`));
  });

  it('refuses a file that is not an LMDB data file', async () => {
    const dir = await copyOfSmallCorpus();
    writeFileSync(dataFileOf(dir), Buffer.alloc(16_384, 7));
    expect(checkLmdbFile(dataFileOf(dir))).toMatchObject({ ok: false, reason: expect.stringContaining('is not an LMDB data file') });
  });
});

describe('openEnv(dataDir) on a truncated data file', () => {
  it('throws store_damaged before mapping the file (no SIGBUS)', async () => {
    const dir = await copyOfSmallCorpus();
    truncateHalf(dataFileOf(dir));
    let thrown: unknown = null;
    try {
      await openEnv(dir).close();
    } catch (e) {
      thrown = e;
    }
    expect(isAppError(thrown) && thrown.code).toBe('store_damaged');
    expect((thrown as Error).message).toContain(join(dir, 'lmdb', 'data.mdb'));
  });
});
