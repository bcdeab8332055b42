// The realism bench's comps-visibility figures (bench/comps-visibility.ts) on the small test corpus.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compsVisibility, REAL_NAIVE_MDAPE_CHICAGO_SFH, type CompsVisibility } from '../../bench/comps-visibility.js';
import { salesColumnsFromArrow, type SalesColumns } from '../../src/store/sales-columns.js';
import { openStore } from '../../src/store/store.js';
import { smallCorpusDir } from '../support/corpus.js';

let sales: SalesColumns;
let muniOf: (geoid: string) => string | null;
let figures: CompsVisibility | null;
const noTruth = mkdtempSync(join(tmpdir(), 'avm-no-truth-'));

beforeAll(async () => {
  const dir = await smallCorpusDir();
  const store = openStore(dir);
  try {
    sales = salesColumnsFromArrow(store.readSalesSnapshot().table);
    const munis = new Map(store.getTracts().map((t) => [t.geoid, t.muni]));
    muniOf = (g) => munis.get(g) ?? null;
    figures = await compsVisibility(dir, sales, muniOf);
  } finally {
    await store.close();
  }
}, 120_000);

afterAll(() => rmSync(noTruth, { recursive: true, force: true }));

describe('comps visibility', () => {
  it('values the corpus\' recent single-family Chicago sales and sets them beside the real naive figure', () => {
    expect(figures).not.toBeNull();
    const f = figures!;
    expect(f.subjects).toBeGreaterThan(500);
    expect(f.real_naive_mdape).toEqual(REAL_NAIVE_MDAPE_CHICAGO_SFH);
    expect(f.naive_vs_price_mdape).toBeGreaterThan(0);
    expect(f.over_real_high).toBeCloseTo(f.naive_vs_price_mdape! / REAL_NAIVE_MDAPE_CHICAGO_SFH[1], 3);
  });

  it('errs less with sale noise and condition taken out of comps and subject (what is left is what comps cannot see)', () => {
    const f = figures!;
    expect(f.true_comps_vs_price_mdape).toBeGreaterThan(0);
    expect(f.structural_mdape!).toBeGreaterThan(0);
    expect(f.structural_mdape!).toBeLessThan(f.true_comps_vs_price_mdape!);
    expect(f.true_comps_vs_price_mdape!).toBeLessThanOrEqual(f.naive_vs_price_mdape!);
  });

  it('gives nothing for a data dir without ground truth (a real corpus)', async () => {
    expect(await compsVisibility(noTruth, sales, muniOf)).toBeNull();
  });
});
