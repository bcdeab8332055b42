import { describe, expect, it } from 'vitest';
import { choleskySolve } from '../../src/valuation/hedonic/linalg.js';
import { armsLengthMask } from '../../src/store/sales-columns.js';
import { dayOfIso } from '../../src/store/days.js';
import { fitHedonic } from '../../src/valuation/hedonic/fit.js';
import { hedonicInterval, predictHedonic } from '../../src/valuation/hedonic/predict.js';
import { hedonicEvidence } from '../../src/valuation/hedonic/evidence.js';
import { backtestHedonic } from '../../src/valuation/hedonic/backtest.js';
import { segmentKey } from '../../src/valuation/hedonic/design.js';
import { HEDONIC } from '../../src/registry/groups/hedonic.js';
import { DEED_CODE } from '../../src/store/columns.js';
import { HedonicEvidenceSchema } from '../../src/valuation/decide/ladder-evidence.js';
import { simulate, TRUE } from './hedonic-sim.js';

describe('choleskySolve', () => {
  it('solves a 2×2 SPD system', () => {
    // A = [[4,2],[2,3]], b = [2,1]: det 8, A⁻¹ = [[3,−2],[−2,4]]/8, x = [(6−2)/8, (−4+4)/8] = [0.5, 0]
    const x = choleskySolve(Float64Array.from([4, 2, 2, 3]), Float64Array.from([2, 1]), 2);
    expect(x[0]).toBeCloseTo(0.5, 12);
    expect(x[1]).toBeCloseTo(0, 12);
  });
  it('refuses a singular system', () => {
    expect(() => choleskySolve(Float64Array.from([1, 1, 1, 1]), Float64Array.from([1, 1]), 2)).toThrow(/positive definite/);
  });
});

describe('armsLengthMask', () => {
  it('rejects the defects the kernel rejects and keeps the first of a repeat', () => {
    const { columns: c } = simulate({ rows: 1, cols: 1, perTract: () => 7, noise: 0.1, seed: 1 });
    // rows 0..6 of one parcel at days 1000, 1050 (rapid resale: 50 d), 1400 (same price as row 1, 350 d later: duplicate), …
    c.parcelIdx.fill(0);
    c.saleDay.set([1000, 1050, 1400, 3000, 4000, 5000, 6000]);
    c.priceUsd.set([200_000, 250_000, 250_000, 300_000, 9_999, 300_000, 310_000]);
    c.deedType[5] = DEED_CODE.quitclaim;
    c.numParcels[6] = 2;
    expect(Array.from(armsLengthMask(c))).toEqual([1, 0, 0, 1, 0, 0, 0]);
  });
});

describe('segmentKey', () => {
  it('names city for Chicago tracts and suburb otherwise', () => {
    expect(segmentKey('sfh', 'Chicago')).toBe('sfh_city');
    expect(segmentKey('mf2_4', 'Evanston')).toBe('mf2_4_suburb');
    expect(segmentKey('sfh', null)).toBe('sfh_suburb');
  });
});

describe('fitHedonic', () => {
  const sim = simulate({ rows: 6, cols: 6, perTract: (i) => (i % 7 === 3 ? 2 : 120), noise: 0.1, seed: 7 });
  const cutoffDay = dayOfIso('2023-07-01');
  const model = fitHedonic(sim.columns, sim.meta, { cutoffDay });
  const fit = model.segments.sfh_city;

  it('recovers the simulated coefficients within tolerance', () => {
    const got = Object.fromEntries(fit.features.map((f, j) => [f, fit.coefs[j]]));
    // noise sd 0.1 on ~3,800 rows: standard errors ≈ 0.1/(sd(x)·√n) ≈ 0.005 for ln_sqft; ±0.04 is > 5 SE for every term
    for (const k of ['ln_sqft', 'beds', 'cond_dated', 'cond_renovated', 'cond_new'] as const) expect(got[k]).toBeCloseTo(TRUE[k], 1);
    expect(Math.abs(got.ln_sqft - TRUE.ln_sqft)).toBeLessThan(0.04);
    expect(Math.abs(got.age - TRUE.age)).toBeLessThan(0.1);
    expect(got.units).toBe(0); // constant in sfh: no within-tract variation, dropped
    expect(fit.sigma).toBeGreaterThan(0.09);
    expect(fit.sigma).toBeLessThan(0.11);
    // quarter effects: 0.01 per quarter, base 2020Q1 → 2022Q1 ≈ 0.08
    expect(fit.quarters['2022Q1']).toBeCloseTo(0.08, 1);
    expect(fit.r2).toBeGreaterThan(0.8);
  });

  it('uses only sales before the cutoff', () => {
    expect(fit.lastQuarter).toBe('2023Q2');
    expect(model.cutoff).toBe('2023-07-01');
    expect(model.version).toMatch(/^hedonic_v1-2023-07-01-[0-9a-f]{10}$/);
  });

  it('never reads a sale on or after the cutoff (no leakage)', () => {
    const moved = { ...sim.columns, priceUsd: sim.columns.priceUsd.map((p, i) => (sim.columns.saleDay[i] >= cutoffDay ? p * 3 : p)) };
    expect(fitHedonic(moved, sim.meta, { cutoffDay })).toEqual(model);
  });

  it('shrinks thin tracts toward their neighborhood with weight n/(n+k)', () => {
    const thin = Object.entries(fit.tracts).filter(([, t]) => t.n <= 2);
    expect(thin.length).toBeGreaterThan(0);
    for (const [, t] of thin) {
      expect(t.weight).toBeCloseTo(t.n / (t.n + fit.shrinkK), 12);
      expect(t.shrunk).toBeCloseTo(t.weight * t.raw + (1 - t.weight) * t.parent, 12);
    }
    // k = σ²/τ² with σ ≈ 0.1 and τ ≈ 0.25 → k ≈ 0.16 floored to 1: a 1–2 sale tract keeps 1/2–2/3 of its own effect
    expect(fit.shrinkK).toBeGreaterThanOrEqual(HEDONIC.v.shrink_k_floor);
    const big = Object.values(fit.tracts).filter((t) => t.n > 50);
    for (const t of big) expect(t.weight).toBeGreaterThan(0.95);
  });

  it('is display-eligible with an out-of-time conformal correction', () => {
    expect(fit.calibration).not.toBeNull();
    expect(fit.calibration!.n).toBeGreaterThanOrEqual(HEDONIC.v.min_calib_n);
    expect(fit.displayEligible).toBe(true);
    expect(fit.calibration!.mdape).toBeLessThan(0.12);
  });

  it('predicts with location basis tract, shrunk, or null when unresolved', () => {
    const g = sim.meta[0];
    const subject = { segment: 'sfh_city', tractGeoid: g.geoid, lat: g.lat, lon: g.lon, sqft: 1500, beds: 3, yearBuilt: 1950, units: 1, condition: 'renovated' as const, asOfDay: cutoffDay };
    const p = predictHedonic(model, subject)!;
    expect(p.location_basis).toBe('tract');
    expect(p.quarter_used).toBe('2023Q2');
    // truth at 2023Q2 (q = 13): α + 0.6 ln 1500 + 0.09 − 0.5·0.73 + 0.3·0.73² + 0.35 + 0.13
    const age = (2023 - 1950) / 100;
    const truth = Math.exp(sim.alpha[0] + 0.6 * Math.log(1500) + 0.09 - 0.5 * age + 0.3 * age * age + 0.35 + 0.13);
    expect(Math.abs(p.value / truth - 1)).toBeLessThan(0.05);
    expect(p.low).toBeLessThan(p.value);
    expect(p.high).toBeGreaterThan(p.value);
    const absent = { ...subject, tractGeoid: '17031999999' };
    expect(predictHedonic(model, absent)!.location_basis).toBe('shrunk');
    expect(predictHedonic(model, { ...absent, lat: 40.0, lon: -89.0 })).toBeNull();
    expect(predictHedonic(model, { ...subject, segment: 'mf2_4_city' })).toBeNull();
  });

  it('imputes unknown facts with the segment mean and says so', () => {
    const g = sim.meta[1];
    const p = predictHedonic(model, { segment: 'sfh_city', tractGeoid: g.geoid, lat: g.lat, lon: g.lon, sqft: null, beds: null, yearBuilt: 1950, units: null, condition: 'renovated', asOfDay: cutoffDay })!;
    expect(p.imputed).toEqual(['sqft', 'beds']);
  });

  it('hands the ladder a valid Tier-2 evidence object', () => {
    const g = sim.meta[2];
    const out = hedonicEvidence(model, { segment: 'sfh_city', tractGeoid: g.geoid, lat: g.lat, lon: g.lon, sqft: 1200, beds: 2, yearBuilt: 1920, units: 1, condition: 'renovated', asOfDay: cutoffDay })!;
    expect(HedonicEvidenceSchema.safeParse(out.evidence).success).toBe(true);
    expect(out.evidence.locationResolved).toBe(true);
    expect(out.evidence.confidenceP10).toBeCloseTo(fit.calibration!.ppe10 * 100, 10);
  });

  it('backtests out of time with coverage near the nominal 80%', () => {
    const bt = backtestHedonic({ sales: sim.columns, tractMeta: sim.meta, cutoffDay, model });
    const row = bt.segments.find((s) => s.segment === 'sfh_city')!;
    expect(row.n_test).toBeGreaterThan(300);
    expect(row.mdape!).toBeLessThan(0.12);
    expect(row.coverage80!).toBeGreaterThan(0.7);
    expect(row.coverage80!).toBeLessThan(0.9);
  });
});

describe('hedonicInterval', () => {
  it('is [v·e^(−zσ)·cLo, v·e^(zσ)·cHi]', () => {
    // σ = 0.1, z = 1.2816: e^(−0.12816) = 0.879716, e^(0.12816) = 1.136735; cLo = 0.95, cHi = 1.05, v = 100,000
    // low = 100,000 · 0.879716 · 0.95 = 83,573.0; high = 100,000 · 1.136735 · 1.05 = 119,357.2
    const cal = { n: 50, qLo: 0, qHi: 0, cLo: 0.95, cHi: 1.05, mdape: 0.1, ppe10: 0.5, fromDay: 0, toDay: 1 };
    const b = hedonicInterval({ sigma: 0.1, calibration: cal }, 100_000);
    expect(b.low).toBeCloseTo(83_573.0, 0);
    expect(b.high).toBeCloseTo(119_357.2, 0);
  });
  it('always contains the value even when the correction would exclude it', () => {
    const cal = { n: 50, qLo: 0, qHi: 0, cLo: 1.2, cHi: 1.3, mdape: 0.1, ppe10: 0.5, fromDay: 0, toDay: 1 };
    expect(hedonicInterval({ sigma: 0.1, calibration: cal }, 100_000).low).toBe(100_000);
  });
});

describe('fitHedonic on thin data', () => {
  it('skips a segment that cannot identify its coefficients and tract effects, with the reason', () => {
    // 240 tracts × 1 sale: 240 rows ≤ 8 covariates + 240 tract effects (every quarter pooled: < 30 sales each)
    const thin = simulate({ rows: 16, cols: 15, perTract: () => 1, noise: 0.1, seed: 11 });
    const m = fitHedonic(thin.columns, thin.meta, { cutoffDay: dayOfIso('2024-01-01') });
    expect(m.segments).toEqual({});
    expect(m.skipped.sfh_city).toMatch(/cannot identify/);
  });
  it('skips a segment below min_segment_n', () => {
    const few = simulate({ rows: 2, cols: 2, perTract: () => 40, noise: 0.1, seed: 12 });
    const m = fitHedonic(few.columns, few.meta, { cutoffDay: dayOfIso('2024-01-01') });
    expect(m.skipped.sfh_city).toBe('160 arms-length sales with complete facts (< 200)');
  });
});
