// Condition inference on a generated test-scale corpus made to look like a real export: the condition columns of the
// sales files blanked and the CCAO renovation / repair flags blanked (the 2.x generator sets them from the true
// condition, unlike real data). Precision and recall of "renovated or new" against the truth file, and the comp
// evidence showing where each comp's condition came from.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankConditionColumns } from '../../../scripts/blank-condition-columns.js';
import { generateCorpus } from '../../../src/ingest/generate/generate.js';
import { ingestAll, type IngestResult } from '../../../src/ingest/ingest.js';
import { CONDITION_SOURCES } from '../../../src/contracts/comp.js';
import { createKernel } from '../../../src/kernel/index.js';
import { CONDITION_SOURCE_CODE, PTYPE_CODE } from '../../../src/store/columns.js';
import { armsLengthMask, salesColumnsFromArrow, type SalesColumns } from '../../../src/store/sales-columns.js';
import { openStore } from '../../../src/store/store.js';
import { kernelColumnsOf } from '../../../src/valuation/comps/kernel-columns.js';
import { conditionClassifierMetrics, type ConditionClassifierReport } from '../../../src/valuation/calibration/condition-metrics.js';
import { buildParcelSalesIndex } from '../../../src/valuation/comps/flip-pairs.js';
import { buildTimeIndex } from '../../../src/valuation/comps/time-index.js';
import { computeTier1 } from '../../../src/valuation/comps/tier1.js';

async function ingested(dataDir: string): Promise<{ sales: SalesColumns; result: IngestResult }> {
  const result = await ingestAll({ dataDir });
  const store = openStore(dataDir);
  try {
    return { sales: salesColumnsFromArrow(store.readSalesSnapshot().table), result };
  } finally {
    await store.close();
  }
}

describe('condition inferred on a generated corpus without condition columns or informative flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avm-cond-'));
  let sales: SalesColumns;
  let result: IngestResult;
  let m: ConditionClassifierReport;

  beforeAll(async () => {
    await generateCorpus({ seed: 7, scale: 'test', outDir: dir });
    blankConditionColumns(join(dir, 'raw'), true);
    ({ sales, result } = await ingested(dir));
    m = (await conditionClassifierMetrics(dir, sales))!;
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('labels every arms-length sale from the data (no feed), with the sources the inference has', () => {
    expect(result.condition.bySource.feed).toBe(0);
    expect(result.condition.bySource.hedonic).toBeGreaterThan(0);
    expect(result.condition.bySource.resale_leg).toBeGreaterThan(0);
    expect(result.condition.bySource.year_built).toBeGreaterThan(0);
    const arms = armsLengthMask(sales);
    for (let i = 0; i < sales.length; i++) if (arms[i] === 1) expect(sales.conditionSource![i]).not.toBe(CONDITION_SOURCE_CODE.unknown);
  });

  /**
   * Floors: about half of arms-length sales are truly renovated or new, so calling every sale renovated gives precision
   * ~0.47 at recall 1. Precision must beat that base rate by 5 points and recall stay above 0.7. On generator 3.0.0
   * (fat-tailed noise, micro-location) price position separates dated from renovated poorly: test scale seed 7 gives
   * precision 0.525 against a base rate of 0.467; default scale seed 1 precision 0.596 (base 0.475), recall 0.876,
   * resale legs 0.83 right (generator 2.0.0: precision 0.68, resale legs 0.92). Resale legs stay the high-precision
   * signal: at least 0.8 of them right. Generator 3.1.0 (realised neighborhood-year medians, per-area quality shape),
   * without the flags blanked: default seed 1 precision 0.646 (base 0.475), recall 0.719, resale legs 0.804 right
   * (3.0.0 measured the same way: 0.594, 0.876, 0.831); test scale seed 7: 0.579 (base 0.467), 0.809, 0.807.
   * Generator 3.2.0 (distressed stock held per area to the real lower tail; `npx tsx scripts/measure-condition.ts` on
   * the ingested default corpus), seeds 1/2/3: precision 0.629 / 0.718 / 0.685, recall 0.787 / 0.469 / 0.622, resale
   * legs 0.799 / 0.806 / 0.803 (3.1.0: 0.646 / 0.619 / 0.712, 0.719 / 0.783 / 0.525, 0.804 / 0.812 / 0.806): the mixture
   * settles on a low renovated class on some seeds (3.1.0 seed 3, 3.2.0 seed 2), where the recall floor would fail.
   */
  it('precision and recall of "renovated or new" beat the base rate (floors in the comment)', () => {
    const baseRate = m.arvStratum.actual / m.n;
    expect(m.n).toBeGreaterThan(1000);
    expect(m.arvStratum.precision!).toBeGreaterThan(baseRate + 0.05);
    expect(m.arvStratum.recall!).toBeGreaterThan(0.7);
    expect(m.bySource.resale_leg.accuracy!).toBeGreaterThan(0.8);
  });

  it('comps in the Tier-1 evidence show their condition, its source and its probability', () => {
    const arms = armsLengthMask(sales);
    let maxDay = 0;
    for (let i = 0; i < sales.length; i++) maxDay = Math.max(maxDay, sales.saleDay[i]);
    const deps = { kernel: createKernel(kernelColumnsOf(sales), buildTimeIndex(sales, maxDay, arms).series), sales, parcelSales: buildParcelSalesIndex(sales) };
    const seen = new Set<string>();
    for (let row = sales.length - 1; row >= 0 && seen.size < 2; row -= 7) {
      if (arms[row] !== 1 || sales.ptype[row] !== PTYPE_CODE.sfh) continue;
      const t1 = computeTier1(deps, { lat: sales.lat[row], lon: sales.lon[row], sqft: sales.sqft[row] > 0 ? sales.sqft[row] : null, beds: null, ptype: sales.ptype[row], county: sales.county[row], asOfDay: maxDay, excludeParcelIdx: sales.parcelIdx[row] }, { withCeiling: false });
      for (const c of t1.comps) {
        expect(['renovated', 'new']).toContain(c.condition);
        expect(CONDITION_SOURCES).toContain(c.condition_source);
        expect(c.condition_source).not.toBe('feed');
        expect(c.condition_prob === null || (c.condition_prob >= 0 && c.condition_prob <= 1)).toBe(true);
        seen.add(c.condition_source);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});

describe('condition given by the feed', () => {
  it('wins everywhere it is given: source feed, probability 1, precision and recall 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avm-cond-feed-'));
    try {
      await generateCorpus({ seed: 7, scale: 'test', outDir: dir, exportCondition: true });
      const { sales, result } = await ingested(dir);
      expect(result.condition.bySource.feed).toBeGreaterThan(0);
      const m = (await conditionClassifierMetrics(dir, sales))!;
      expect(m.arvStratum.precision).toBe(1);
      expect(m.arvStratum.recall).toBe(1);
      expect(Object.keys(m.bySource)).toEqual(['feed']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('condition classifier metrics', () => {
  it('are null on a corpus without a truth folder (a real export)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avm-cond-real-'));
    try {
      const none = { length: 0 } as unknown as SalesColumns;
      expect(await conditionClassifierMetrics(dir, none)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('condition source names', () => {
  it('the contract names are the store codes, in code order', () => {
    const byCode = Object.entries(CONDITION_SOURCE_CODE).sort((a, b) => a[1] - b[1]).map(([name]) => name);
    expect(byCode).toEqual([...CONDITION_SOURCES]);
  });
});
