// The served coverage of 2-4-unit subjects (served-coverage.ts, read by scripts/mf-coverage.ts and the accuracy bench):
// every arms-length 2-4-unit sale of the window gets exactly one outcome, the shares of a group add up to 1, and
// "answered" is the Tier-1 point + Tier-1 range + Tier-2 range share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PTYPE_CODE } from '../../../src/store/columns.js';
import { armsLengthMask } from '../../../src/store/sales-columns.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { multiFamilyCoverage, type ServedCoverage } from '../../../src/valuation/calibration/served-coverage.js';
import { buildValuationContext, servingCutoffDay } from '../../../src/valuation/value-context.js';
import { smallCorpusDir } from '../../support/corpus.js';

const DAYS = 365;
let store: Store;
let cov: ServedCoverage;
let expected: { cook: number; lake: number };

beforeAll(async () => {
  store = openStore(await smallCorpusDir());
  const ctx = buildValuationContext(store);
  cov = multiFamilyCoverage(ctx, DAYS);
  const s = ctx.sales, arms = armsLengthMask(s), end = servingCutoffDay(s);
  expected = { cook: 0, lake: 0 };
  for (let i = 0; i < s.length; i++) {
    if (arms[i] === 1 && s.ptype[i] === PTYPE_CODE.mf2_4 && s.saleDay[i] >= end - DAYS && s.saleDay[i] < end) expected[s.county[i] === 2 ? 'lake' : 'cook']++;
  }
}, 300_000);

afterAll(async () => {
  await store?.close();
});

describe('multiFamilyCoverage', () => {
  it('counts every arms-length 2-4-unit sale of the window once per county', () => {
    expect(expected.cook).toBeGreaterThan(20);
    for (const county of ['cook', 'lake'] as const) {
      const all = cov.groups.find((g) => g.group === `${county}/all`);
      const errors = cov.groups.find((g) => g.group === `${county}/error`)?.n ?? 0;
      expect((all?.n ?? 0) + errors, county).toBe(expected[county]);
    }
  });

  it('gives each group shares that add up to 1 and an answered share of points and ranges', () => {
    for (const g of cov.groups) {
      const total = Object.values(g.shares).reduce((a, b) => a + b, 0);
      expect(total, g.group).toBeCloseTo(1, 9);
      expect(g.answered, g.group).toBeCloseTo((g.shares.point ?? 0) + (g.shares.tier1_range ?? 0) + (g.shares.tier2_range ?? 0), 9);
      for (const [outcome, m] of Object.entries(g.renovated)) expect(m.n, `${g.group} ${outcome}`).toBeGreaterThan(0);
    }
    expect(cov.window.from < cov.window.to).toBe(true);
  });
});
