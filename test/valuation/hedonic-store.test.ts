import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEnv } from '../../src/store/env.js';
import { ALL_GROUPS } from '../../src/registry/constants.js';
import { fitHedonic } from '../../src/valuation/hedonic/fit.js';
import { listHedonicModels, loadHedonicModel, saveHedonicModel } from '../../src/valuation/hedonic/store.js';
import { predictHedonic } from '../../src/valuation/hedonic/predict.js';
import { dayOfIso } from '../../src/store/days.js';
import { simulate } from './hedonic-sim.js';

describe('hedonic model storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'avm-hedonic-'));
  const env = openEnv(dir);
  afterAll(async () => { await env.close(); rmSync(dir, { recursive: true, force: true }); });
  const sim = simulate({ rows: 4, cols: 4, perTract: () => 80, noise: 0.1, seed: 3 });

  it('round-trips through the LMDB calibration sub-db and moves the current pointer', async () => {
    expect(loadHedonicModel(env)).toBeNull();
    const a = fitHedonic(sim.columns, sim.meta, { cutoffDay: dayOfIso('2023-01-01') });
    const b = fitHedonic(sim.columns, sim.meta, { cutoffDay: dayOfIso('2023-07-01') });
    await saveHedonicModel(env, a);
    await saveHedonicModel(env, b);
    const current = loadHedonicModel(env)!;
    expect(current.version).toBe(b.version);
    expect(loadHedonicModel(env, a.version)!.cutoff).toBe('2023-01-01');
    expect(listHedonicModels(env).map((m) => m.version).sort()).toEqual([a.version, b.version].sort());
    const g = sim.meta[5];
    const s = { segment: 'sfh_city', tractGeoid: g.geoid, lat: g.lat, lon: g.lon, sqft: 1400, beds: 3, yearBuilt: 1960, units: 1, condition: 'renovated' as const, asOfDay: b.cutoffDay };
    expect(predictHedonic(current, s)!.value).toBeCloseTo(predictHedonic(b, s)!.value, 9);
  });

  it('refuses an unknown version', () => {
    expect(() => loadHedonicModel(env, 'hedonic_v1-nope')).toThrow(/no hedonic model/);
  });

  it('pools a thin last quarter into the previous one', () => {
    // cutoff two weeks into 2023Q2: ~12 sales there (< min_quarter_n 30) → same effect as 2023Q1
    const m = fitHedonic(sim.columns, sim.meta, { cutoffDay: dayOfIso('2023-04-15') });
    const f = m.segments.sfh_city;
    expect(f.lastQuarter).toBe('2023Q2');
    expect(f.quarters['2023Q2']).toBe(f.quarters['2023Q1']);
  });

  it('registers the issue-5 constant groups in the registry', () => {
    expect(ALL_GROUPS.map((g) => g.name)).toEqual(expect.arrayContaining(['hedonic', 'area_context', 'rent', 'income', 'fallback']));
  });
});
