// Calibration math on hand-computed sets: time split, split-conformal ranks, coverage, display gates; the registry
// promotes only through its gates and keeps a rollback pointer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { artifactDigest, evaluatePromotionGates, openModelRegistry } from '../../src/registry/model-registry.js';
import { openStore } from '../../src/store/store.js';
import type { BacktestRecord } from '../../src/valuation/calibration/backtest.js';
import { buildCalibrationTable, chooseDisplay, groupMetrics, segmentRow, splitInTime } from '../../src/valuation/calibration/table.js';
import { calibrationFor, type SegmentMetrics } from '../../src/valuation/decide/segment.js';

const rec = (saleDay: number, priceUsd: number, estimateUsd: number | null, segment = 'sfh_city'): BacktestRecord => ({ row: saleDay, saleDay, priceUsd, segment, estimateUsd, nComps: 5, ladderStep: 1, fsdPct: 10, reason: estimateUsd === null ? 'insufficient_renovated_comps' : null });

describe('calibration math', () => {
  it('splits the holdout in time at the median sale day', () => {
    const s = splitInTime([rec(5, 1, 1), rec(1, 1, 1), rec(3, 1, 1), rec(7, 1, 1)]);
    // sorted days 1,3,5,7 → index 2 → split day 5: days 1,3 calibrate; 5,7 test
    expect(s.splitDay).toBe(5);
    expect(s.calibration.map((r) => r.saleDay)).toEqual([1, 3]);
    expect(s.test.map((r) => r.saleDay)).toEqual([5, 7]);
  });

  it('split-conformal q80 from 30 calibration ratios: ranks floor(31·0.1)=3 and ceil(31·0.9)=28', () => {
    // estimate 100 each, prices 71..129 step 2 → ratios 0.71..1.29; 3rd smallest 0.75, 28th 1.25
    const cal = Array.from({ length: 30 }, (_, i) => rec(i, 71 + 2 * i, 100));
    const test = [rec(100, 100, 100), rec(101, 120, 100), rec(102, 130, 100), rec(103, 60, 100), rec(104, 100, null)];
    const row = segmentRow('sfh_city', cal, test)!;
    expect(row.q80Lo).toBeCloseTo(0.75, 12);
    expect(row.q80Hi).toBeCloseTo(1.25, 12);
    // |estimate/price − 1| ≤ 10% ⇔ price ∈ [100/1.1, 100/0.9] = [90.9, 111.1] → prices 91, 93, …, 111: 11 of 30
    expect(row.confidenceP10).toBeCloseTo((11 / 30) * 100, 10);
    // test: 100 and 120 inside [75, 125]; 130 and 60 outside → 2/4; one of 5 not valued → 20% suppressed
    expect(row.test.coverage80).toBe(0.5);
    expect(row.test.suppressionRate).toBeCloseTo(0.2, 12);
    expect(row.test.meanWidth80).toBeCloseTo(0.5, 12);
    expect(row.display).toBe('range'); // test n 4 < 30
  });

  it('no row below 30 calibration ratios', () => {
    expect(segmentRow('x', Array.from({ length: 29 }, (_, i) => rec(i, 100, 100)), [])).toBeNull();
  });

  it('display gates: point needs PPE10 ≥ 0.5 and coverage within ±5 pts; MdAPE > 25% suppresses', () => {
    const m = (o: Partial<SegmentMetrics>): SegmentMetrics => ({ n: 100, mdape: 0.08, ppe10: 0.6, coverage80: 0.8, meanWidth80: 0.3, cod: 9, prd: 1, prb: 0, suppressionRate: 0, ...o });
    expect(chooseDisplay(m({})).display).toBe('point');
    expect(chooseDisplay(m({ coverage80: 0.74 })).display).toBe('range');
    expect(chooseDisplay(m({ ppe10: 0.49 })).display).toBe('range');
    expect(chooseDisplay(m({ mdape: 0.3 })).display).toBe('suppress');
    expect(chooseDisplay(m({ n: 29 })).display).toBe('range');
  });

  it('MdAPE, PPE10 and coverage of a group by hand', () => {
    // ratios est/price: 1.0, 0.8, 1.25, 1.05 → |err| 0, .2, .25, .05 → MdAPE (0.05+0.2)/2 = 0.125; PPE10 2/4
    const g = groupMetrics([rec(1, 100, 100), rec(2, 100, 80), rec(3, 100, 125), rec(4, 100, 105)], { lo: 0.9, hi: 1.1 });
    expect(g.mdape).toBeCloseTo(0.125, 12);
    expect(g.ppe10).toBe(0.5);
    // price/est in [0.9·est, 1.1·est]: 100∈[90,110] yes; 100∈[72,88] no; 100∈[112.5,137.5] no; 100∈[94.5,115.5] yes
    expect(g.coverage80).toBe(0.5);
  });

  it('the table serves the ladder its row', () => {
    const records = [...Array.from({ length: 40 }, (_, i) => rec(i, 90 + (i % 20), 100)), ...Array.from({ length: 40 }, (_, i) => rec(100 + i, 90 + (i % 20), 100))];
    const t = buildCalibrationTable(records, { createdAt: 'c', snapshotId: 's', modelVersion: 'm', registryVersion: 'r', startDay: 0, endDay: 200 });
    expect(calibrationFor(t, 'sfh_city')).toMatchObject({ segment: 'sfh_city', version: t.version, display: t.segments.sfh_city.display });
    // No mf2_4 sale at all: the all-types pooled row is the declared fallback, served as a range and named
    expect(calibrationFor(t, 'mf2_4_city')).toMatchObject({ segment: 'all_pooled', display: 'range', fallbackFor: 'mf2_4_city' });
    expect(calibrationFor(t, 'sfh_suburb')).toMatchObject({ segment: 'sfh_pooled', display: 'range', fallbackFor: 'sfh_suburb' });
    // A table written before the fallback rows (tier1_valuation < 1.3.0) has none: no calibration, as before
    expect(calibrationFor({ ...t, fallbacks: undefined }, 'mf2_4_city')).toBeNull();
    // The version the registry stores this table under: SHA-256 of JSON.stringify({ segments, fallbacks, snapshot }) in
    // build order (not canonical JSON). Pinned from the code of tier1_valuation 1.3.0 (the fallback rows joined the digest).
    expect(t.version).toBe('cal-m-3253a489e61c');
  });
});

describe('model registry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avm-registry-'));
  const store = openStore(dir);
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const table = (version: string, coverage: number) => {
    const records = Array.from({ length: 80 }, (_, i) => rec(i, 90 + (i % 20), 100));
    return { ...buildCalibrationTable(records, { createdAt: 'c', snapshotId: 's', modelVersion: 'm', registryVersion: 'r', startDay: 0, endDay: 80 }), version, overall: { n: 100, mdape: 0.08, ppe10: 0.6, coverage80: coverage, meanWidth80: 0.3, cod: 9, prd: 1.01, prb: 0.01, suppressionRate: 0.1 } };
  };

  it('promotes a passing challenger, rejects a failing one, rolls back to the previous champion', async () => {
    const reg = openModelRegistry(store);
    const a = table('cal-a', 0.8);
    const b = table('cal-b', 0.7);
    const c = table('cal-c', 0.81);
    expect((await reg.submit(a, evaluatePromotionGates(a.overall))).status).toBe('champion');
    const rb = await reg.submit(b, evaluatePromotionGates(b.overall));
    expect(rb.status).toBe('rejected');
    expect(rb.gates.checks.find((x) => x.gate === 'coverage80')?.passed).toBe(false);
    expect(reg.document().champion?.calibrationVersion).toBe('cal-a');
    await reg.submit(c, evaluatePromotionGates(c.overall));
    expect(reg.document()).toMatchObject({ champion: { calibrationVersion: 'cal-c' }, rollback: { calibrationVersion: 'cal-a', status: 'retired' } });
    expect(reg.championTable()?.version).toBe('cal-c');
    await reg.rollback();
    expect(reg.document().champion?.calibrationVersion).toBe('cal-a');
    expect(reg.document().champion?.digest).toBe(artifactDigest(a, 'm', 'r'));
  });

  it('the digest changes with the table and the code version', () => {
    const a = table('cal-a', 0.8);
    expect(artifactDigest(a, 'm', 'r')).toBe(artifactDigest(structuredClone(a), 'm', 'r'));
    expect(artifactDigest(a, 'm2', 'r')).not.toBe(artifactDigest(a, 'm', 'r'));
    expect(artifactDigest({ ...a, version: 'x' }, 'm', 'r')).not.toBe(artifactDigest(a, 'm', 'r'));
  });
});
