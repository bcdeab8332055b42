// The synthetic ground truth (<dataDir>/truth/) must never reach the serving path: statically (no serving module
// refers to it, except the guards that refuse it) and at run time (the ingest refuses it and stores none of it).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestAll } from '../../src/ingest/ingest.js';
import { GROUND_TRUTH_DIR, GROUND_TRUTH_FILE } from '../../src/ingest/layouts.js';
import { assertNotTruthPath } from '../../src/ingest/loaders/run.js';
import { openStore } from '../../src/store/store.js';
import { writeFixture } from '../ingest/loaders/fixture-corpus.js';

const SRC = resolve(import.meta.dirname, '../../src');
const TRUTH_REF = /GROUND_TRUTH_(DIR|FILE)|sales_truth|['"`]truth['"`/]/;

/** Files allowed to name the truth folder, and why. */
const ALLOWED: Record<string, string> = {
  'ingest/layouts.ts': 'defines the constants',
  'ingest/loaders/run.ts': 'assertNotTruthPath: refuses truth paths',
  'ingest/ingest.ts': 'refuses a raw dir inside the truth folder',
};
const isWriterOrCalibration = (rel: string): boolean => rel.startsWith('ingest/generate/') || /calibrat|backtest/.test(rel);
const GUARDS = new Set(Object.keys(ALLOWED));

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * Relative modules a file loads at run time. `import type` / `export type` statements are erased by the compiler and
 * load nothing, so they are not followed (the report page renderer names the report's type from the calibration job).
 */
function runtimeImports(text: string): string[] {
  const typeOnly = /^\s*(?:import|export)\s+type\s[^;'"]*?from\s*['"](\.{1,2}\/[^'"]+)\.js['"]/gm;
  const erased = text.replace(typeOnly, '');
  return [...erased.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)\.js['"]/g)].map((m) => m[1]);
}

/** The calibration report page renderer (GET /model serves it): pure functions of a stored report; they read no file. */
const REPORT_RENDERER = 'valuation/calibration/html/';

/** Every src module reachable by relative run-time imports from `entries`. */
function reachable(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = entries.filter(existsSync);
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const spec of runtimeImports(text)) {
      const target = resolve(dirname(file), `${spec}.ts`);
      if (existsSync(target)) stack.push(target);
    }
  }
  return seen;
}

describe('ground truth isolation (static)', () => {
  it('only the generator, calibration/backtest jobs and the refusing guards name the truth folder', () => {
    const offenders = tsFiles(SRC)
      .map((f) => relative(SRC, f))
      .filter((rel) => TRUTH_REF.test(readFileSync(join(SRC, rel), 'utf8')))
      .filter((rel) => !GUARDS.has(rel) && !isWriterOrCalibration(rel));
    expect(offenders).toEqual([]);
  });

  it('no module reachable from the store, the ingest or the HTTP app refers to the truth folder except the guards', () => {
    const entries = ['store/store.ts', 'ingest/ingest.ts', 'http/app.ts', 'server.ts', ...['workers', 'mcp'].flatMap((d) => (existsSync(join(SRC, d)) ? tsFiles(join(SRC, d)).map((f) => relative(SRC, f)) : []))];
    const files = [...reachable(entries.map((e) => join(SRC, e)))].map((f) => relative(SRC, f));
    expect(files).toContain('store/store.ts');
    const offenders = files.filter((rel) => TRUTH_REF.test(readFileSync(join(SRC, rel), 'utf8')) && !GUARDS.has(rel) && !rel.startsWith('ingest/generate/'));
    expect(offenders).toEqual([]);
    expect(files.filter((rel) => /calibrat|backtest/.test(rel) && !rel.startsWith(REPORT_RENDERER))).toEqual([]);
    // The renderer the service loads reads nothing: no file system, no process, only its own pieces and the registry.
    const renderer = files.filter((rel) => rel.startsWith(REPORT_RENDERER));
    expect(renderer).toContain(`${REPORT_RENDERER}report-html.ts`);
    for (const rel of renderer) expect(readFileSync(join(SRC, rel), 'utf8'), rel).not.toMatch(/from\s*['"]node:|process\./);
  });
});

describe('ground truth isolation (run time)', () => {
  const fx = writeFixture();
  const truthDir = join(fx.dataDir, GROUND_TRUTH_DIR);
  const SENTINEL_PRICE = 987_654_321; // appears only in the truth file
  mkdirSync(truthDir);
  writeFileSync(join(truthDir, GROUND_TRUTH_FILE), `row_id,county,pin,sale_date,sale_price,true_value\nC1,cook,17011010010000,2019-06-26,250000,${SENTINEL_PRICE}\n`);
  afterAll(() => fx.cleanup());

  it('refuses to ingest from the truth folder', async () => {
    await expect(ingestAll({ dataDir: fx.dataDir, rawDir: truthDir })).rejects.toThrow(/ground-truth/);
    expect(() => assertNotTruthPath(join(truthDir, GROUND_TRUTH_FILE))).toThrow(/ground-truth/);
  });

  it('an ingest beside a truth folder stores nothing from it', async () => {
    await ingestAll({ dataDir: fx.dataDir });
    const store = openStore(fx.dataDir);
    try {
      const prices = store.readSalesSnapshot().table.getChild('price_usd')!.toArray() as Float64Array;
      expect(prices.length).toBeGreaterThan(0);
      expect([...prices].includes(SENTINEL_PRICE)).toBe(false);
      const rec = store.getMeta<{ files: Array<{ file: string }> }>('ingest:last')!;
      expect(rec.files.map((f) => f.file)).not.toContain(GROUND_TRUTH_FILE);
    } finally {
      await store.close();
    }
  });
});
