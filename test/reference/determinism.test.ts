// Re-deriving from the raw files gives identical bytes, twice, and equal to what is committed in data/reference.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE_DIR } from '../../src/config.js';
import { deriveReference, REFERENCE_FILES } from '../../src/reference/derive/index.js';

const RAW_DIR = join(import.meta.dirname, '../../../shared/data/raw');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe.skipIf(!existsSync(join(RAW_DIR, 'SOURCES.md')))('deriveReference(rawDir, outDir)', () => {
  it('is byte-identical across runs and matches the committed files', () => {
    const a = mkdtempSync(join(tmpdir(), 'ref-a-'));
    const b = mkdtempSync(join(tmpdir(), 'ref-b-'));
    dirs.push(a, b);
    const summary = deriveReference(RAW_DIR, a);
    deriveReference(RAW_DIR, b);
    for (const f of REFERENCE_FILES) {
      const bytesA = readFileSync(join(a, f));
      expect(bytesA.equals(readFileSync(join(b, f))), `${f} differs between runs`).toBe(true);
      expect(bytesA.equals(readFileSync(join(REFERENCE_DIR, f))), `${f} differs from data/reference (re-run npm run derive:reference)`).toBe(true);
    }
    expect(summary.notes.equalizationCrossCheck).toEqual({ yearsCompared: 40, disagreements: [] });
    expect(summary.notes.neighborhoodGroups).toEqual({ rows: 573, groups: 69, notInPolygons: [] });
  });

  it('fails clearly when the raw folder is missing', () => {
    expect(() => deriveReference(join(RAW_DIR, 'nope'), join(tmpdir(), 'never'))).toThrow(/raw data folder not found/);
  });
});
