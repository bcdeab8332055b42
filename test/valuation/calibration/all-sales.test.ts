// The all-sales section of the calibration report on the generated test corpus: every arms-length sale of the holdout
// scored against the value that applies to it by its TRUE condition (truth/), arv + as_is = overall, refused sales in
// n and in the suppressed share, naive and oracle baselines on the same groups, and the calibration table unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/store.js';
import { calibrate, reportMarkdown, type CalibrationReport } from '../../../src/valuation/calibration/job.js';
import { smallCorpusDir } from '../../support/corpus.js';

let store: Store;
let withAll: CalibrationReport;
let tableVersions: string[];

beforeAll(async () => {
  const dataDir = await smallCorpusDir();
  store = openStore(dataDir);
  const now = () => new Date('2026-11-02T12:00:00Z');
  const a = await calibrate(store, { dataDir, resultsDir: null, besideTier1: false, allSales: true, now });
  const b = await calibrate(store, { dataDir, resultsDir: null, besideTier1: false, allSales: false, now });
  withAll = a.report;
  tableVersions = [a.table.version, b.table.version];
  expect(b.report.allSales).toBeUndefined();
}, 300_000);

afterAll(async () => {
  await store?.close();
});

const row = (kind: string, group: string) => withAll.allSales!.rows.find((r) => r.kind === kind && r.group === group)!;

describe('all-sales backtest in the calibration report', () => {
  it('scoring every sale leaves the ARV calibration table (what serving reads) exactly as it was', () => {
    expect(tableVersions[0]).toBe(tableVersions[1]);
  });

  it('kinds come from the ground truth; arv + as_is = overall, per segment and pooled; n = valued + refused', () => {
    const s = withAll.allSales!;
    expect(s.kindSource).toBe('truth');
    expect(s.window.start).toBe(withAll.holdout.start);
    const groups = new Set(s.rows.map((r) => r.group));
    for (const g of groups) {
      const [arv, asIs, all] = [s.rows.find((r) => r.kind === 'arv' && r.group === g), s.rows.find((r) => r.kind === 'as_is' && r.group === g), row('overall', g)];
      expect(all.n).toBe((arv?.n ?? 0) + (asIs?.n ?? 0));
      expect(all.valued).toBe((arv?.valued ?? 0) + (asIs?.valued ?? 0));
    }
    for (const r of s.rows) {
      expect(r.n).toBe(r.valued + r.refused);
      if (r.nOutcome > 0) expect(r.pointShare! + r.rangeShare! + r.suppressedShare!).toBeCloseTo(1, 12);
    }
    const all = row('overall', 'all');
    expect(all.n).toBeGreaterThan(withAll.holdout.sales); // every condition, not only renovated sales
    expect(all.refused).toBeGreaterThan(0);
    // refused sales are in the denominator: the suppressed share is at least the refused share of the test half
    expect(all.suppressedShare!).toBeGreaterThan(0);
    expect(row('as_is', 'all').valued).toBeGreaterThan(0);
    expect(row('arv', 'all').valued).toBeGreaterThan(0);
  });

  it('naive and oracle baselines on the same groups; the oracle values every sale the truth knows', () => {
    const b = withAll.baselines!;
    for (const r of withAll.allSales!.rows) {
      const naive = b.find((x) => x.name === 'naive' && x.kind === r.kind && x.group === r.group)!;
      const oracle = b.find((x) => x.name === 'oracle' && x.kind === r.kind && x.group === r.group)!;
      expect(naive.n + naive.refused).toBe(r.n);
      expect(oracle.n).toBe(r.n);
      expect(oracle.mdape).not.toBeNull();
    }
    const naiveAll = b.find((x) => x.name === 'naive' && x.kind === 'overall' && x.group === 'all')!;
    const paired = withAll.allSales!.vsNaive.find((v) => v.kind === 'overall')!;
    expect(paired.n).toBeGreaterThan(0);
    expect(paired.n).toBeLessThanOrEqual(Math.min(naiveAll.n, row('overall', 'all').valued));
    expect(withAll.allSales!.vsNaive.map((v) => v.kind)).toEqual(['arv', 'as_is', 'overall']);
    expect(naiveAll.mdape!).toBeGreaterThan(0);
    expect(naiveAll.ppe20!).toBeGreaterThanOrEqual(naiveAll.ppe10!);
  });

  it('the markdown report lists every all-sales row with the naive and oracle MdAPE beside it', () => {
    const md = reportMarkdown(withAll);
    for (const r of withAll.allSales!.rows) expect(md).toContain(`| ${r.kind}/${r.group} | ${r.n} | ${r.refused} |`);
  });
});
