// The 2/3/4-unit comp adjustment: the estimator recovers known premiums from a hand-built noise-free corpus using only
// pre-cutoff sales, and Tier 1 re-prices comps of another unit count by exp(premium(subject) − premium(comp)).
import { describe, expect, it } from 'vitest';
import { createKernel } from '../../../src/kernel/index.js';
import { STRATUM } from '../../../src/kernel/params.js';
import { COMP_POLICY } from '../../../src/registry/groups/comp-policy.js';
import { GENERATOR } from '../../../src/registry/groups/generator.js';
import { CONDITION_CODE, PTYPE_CODE } from '../../../src/store/columns.js';
import { kernelColumnsOf } from '../../../src/valuation/comps/kernel-columns.js';
import { buildParcelSalesIndex } from '../../../src/valuation/comps/flip-pairs.js';
import type { SalesColumns } from '../../../src/store/sales-columns.js';
import { computeTier1, type Tier1Subject } from '../../../src/valuation/comps/tier1.js';
import { estimateUnitsPremium, summarizeAdjusted, unitsFactor, type UnitsPremium } from '../../../src/valuation/comps/units-stratum.js';
import { median, quantileType7 } from '../../../src/reference/stats.js';
import { AS_OF_DAY, SUBJECT, salesOf, type Row } from '../tier1-fixture.js';

// Premiums of the synthetic generator (generator.ts unit_premium_log [_, 0, −0.06, −0.10, −0.13]) relative to 2 units.
const TRUE_PREMIUM = { 2: 0, 3: -0.04, 4: -0.07 } as const;
const COND_LOG = [0, 0.1, 0.25, 0.3]; // distressed, dated, renovated, new (arbitrary: absorbed by condition dummies)
const BEDS_LOG = 0.02;
const CONDS: Array<keyof typeof CONDITION_CODE> = ['distressed', 'dated', 'renovated', 'new'];

type MfSale = { tract: number; units: 2 | 3 | 4; i: number; daysAgo?: number; cond?: number; priceMult?: number };

/**
 * Noise-free multi-unit sales: ln price = tract level + g·ln sqft + 0.02·beds + premium(units) + condition effect,
 * g = the generator's living-area elasticity by default, so OLS with tract effects (ln sqft a regressor) is exact.
 */
function mfCorpus(sales: readonly MfSale[], g: number = GENERATOR.v.beta_ln_sqft): SalesColumns {
  const rows: Row[] = sales.map((s) => {
    const sqft = s.units * 1000 + (s.i % 4) * 120;
    const beds = 2 * s.units + (s.i % 3) - 1;
    const cond = s.cond ?? s.i % 4;
    const lnPrice = 11.5 + 0.3 * s.tract + g * Math.log(sqft) + BEDS_LOG * beds + TRUE_PREMIUM[s.units] + COND_LOG[cond];
    return { price: Math.exp(lnPrice) * (s.priceMult ?? 1), sqft, beds, cond: CONDS[cond], ptype: 'mf2_4', daysAgo: s.daysAgo ?? 30 };
  });
  const c = salesOf(rows, ['17031000100', '17031000200']);
  sales.forEach((s, k) => {
    c.units[k] = s.units;
    c.tractIdx[k] = s.tract;
  });
  return c;
}

/** `perCell` sales for every (tract 0/1, units 2/3/4) cell. */
function grid(perCell: number, extra: Partial<MfSale> = {}): MfSale[] {
  const out: MfSale[] = [];
  for (const tract of [0, 1]) for (const units of [2, 3, 4] as const) for (let i = 0; i < perCell; i++) out.push({ tract, units, i, ...extra });
  return out;
}

const allArms = (c: SalesColumns): Uint8Array => new Uint8Array(c.length).fill(1);

describe('estimateUnitsPremium', () => {
  it('recovers the 3- and 4-unit premiums of a noise-free corpus (16 sales per tract and unit count = 32 per count)', () => {
    const c = mfCorpus(grid(16));
    const p = estimateUnitsPremium(c, AS_OF_DAY, allArms(c));
    expect(p).not.toBeNull();
    expect(p!.logPremium[2]).toBe(0);
    expect(p!.logPremium[3]).toBeCloseTo(TRUE_PREMIUM[3], 9);
    expect(p!.logPremium[4]).toBeCloseTo(TRUE_PREMIUM[4], 9);
    expect(p!.sales).toEqual({ 2: 32, 3: 32, 4: 32 });
  });

  it('estimates the size elasticity, so the premiums hold whether the market elasticity is the GLA adjustment\'s or not', () => {
    // Living area grows with the unit count here (units × 1000 sqft): an elasticity fixed at gla_marginal_frac (0.5)
    // under a market at 0.55 would put 0.05·ln(4000/2000) ≈ 0.035 of size effect into the 4-unit premium.
    for (const g of [COMP_POLICY.v.gla_marginal_frac, GENERATOR.v.beta_ln_sqft]) {
      const c = mfCorpus(grid(16), g);
      const p = estimateUnitsPremium(c, AS_OF_DAY, allArms(c));
      expect(p!.logPremium[3]).toBeCloseTo(TRUE_PREMIUM[3], 9);
      expect(p!.logPremium[4]).toBeCloseTo(TRUE_PREMIUM[4], 9);
    }
  });

  it('reads only sales strictly before the cutoff (later 4-unit sales at 3× price change nothing)', () => {
    const late = grid(16, { daysAgo: 0, priceMult: 3 }).filter((s) => s.units === 4);
    const c = mfCorpus([...grid(16), ...late]);
    const p = estimateUnitsPremium(c, AS_OF_DAY, allArms(c));
    expect(p!.logPremium[4]).toBeCloseTo(TRUE_PREMIUM[4], 9);
    expect(p!.sales[4]).toBe(32);
  });

  it('ignores non-arms-length sales (mask 0) even when wildly priced', () => {
    const c = mfCorpus([...grid(16), ...grid(16, { priceMult: 0.3 })]);
    const arms = allArms(c);
    arms.fill(0, grid(16).length);
    expect(estimateUnitsPremium(c, AS_OF_DAY, arms)!.logPremium[3]).toBeCloseTo(TRUE_PREMIUM[3], 9);
  });

  it('still estimates when a condition is absent (its dummy is dropped)', () => {
    const c = mfCorpus(grid(16).map((s) => ({ ...s, cond: s.i % 4 === 3 ? 0 : s.i % 4 }))); // no 'new' sale
    expect(estimateUnitsPremium(c, AS_OF_DAY, allArms(c))!.logPremium[4]).toBeCloseTo(TRUE_PREMIUM[4], 9);
  });

  it('returns null for a collinear design (beds and condition both follow i mod 3) rather than guessing', () => {
    const c = mfCorpus(grid(16).map((s) => ({ ...s, cond: s.i % 3 })));
    expect(estimateUnitsPremium(c, AS_OF_DAY, allArms(c))).toBeNull();
  });

  it('returns null when a unit count has fewer than 30 sales (14 per tract = 28)', () => {
    const c = mfCorpus(grid(16).filter((s) => s.units !== 4 || s.i < 14));
    expect(estimateUnitsPremium(c, AS_OF_DAY, allArms(c))).toBeNull();
  });
});

const PREMIUM: UnitsPremium = { cutoffDay: AS_OF_DAY, logPremium: TRUE_PREMIUM, sales: { 2: 100, 3: 100, 4: 100 } };

describe('unitsFactor', () => {
  it('is exp(premium(subject) − premium(comp)) for 2–4 units and 1 otherwise', () => {
    expect(unitsFactor(PREMIUM, 4, 2)).toBeCloseTo(Math.exp(-0.07), 12);
    expect(unitsFactor(PREMIUM, 2, 4)).toBeCloseTo(Math.exp(0.07), 12);
    expect(unitsFactor(PREMIUM, 3, 3)).toBe(1);
    expect(unitsFactor(PREMIUM, null, 2)).toBe(1); // subject units unknown
    expect(unitsFactor(PREMIUM, 4, 0)).toBe(1); // comp units unknown
    expect(unitsFactor(PREMIUM, 1, 2)).toBe(1); // single-family subject
    expect(unitsFactor(null, 4, 2)).toBe(1);
  });
});

describe('computeTier1 with the unit-count adjustment', () => {
  // Six renovated mf2_4 comps, same sqft/beds as the subject (no GLA adjustment, no time index → factor 1).
  const prices = [400_000, 410_000, 420_000, 370_000, 375_000, 380_000];
  const units = [2, 2, 2, 4, 4, 4];
  const sales = salesOf(prices.map((price, i) => ({ price, sqft: 3000, beds: 6, ptype: 'mf2_4', distMi: 0.1 + 0.02 * i })));
  units.forEach((u, i) => (sales.units[i] = u));
  const deps = { kernel: createKernel(kernelColumnsOf(sales), []), sales, parcelSales: buildParcelSalesIndex(sales) };
  const subject: Tier1Subject = { ...SUBJECT, sqft: 3000, beds: 6, ptype: PTYPE_CODE.mf2_4, county: 1, asOfDay: AS_OF_DAY, excludeParcelIdx: null, units: 4 };

  // Distances 0.10..0.20 mi → value weights 1/(d + 0.05)²: 44.44, 34.60, 27.70 (2-unit rows), 22.68, 18.90, 16.00
  // (4-unit rows); total 164.3, half 82.2 (comp-value.ts).
  it('re-prices 2-unit comps for a 4-unit subject: weighted median 375,000 instead of 400,000', () => {
    // 2-unit comps × exp(−0.07) = 372,958 / 382,281 / 391,606. By price: 370k 22.68 → 372,958 67.12 → 375k 86.02 ≥ 82.2.
    const t = computeTier1({ ...deps, unitsPremium: PREMIUM }, subject, { withCeiling: false });
    expect(t.evidence.nComps).toBe(6);
    expect(t.evidence.valueUsd).toBeCloseTo(375_000, 6);
    const byRow = new Map(t.unitsAdjustments.map((a) => [a.row, a]));
    expect(t.unitsAdjustments).toHaveLength(6);
    expect(byRow.get(0)).toEqual({ row: 0, units: 2, factor: Math.exp(-0.07) });
    expect(byRow.get(3)).toEqual({ row: 3, units: 4, factor: 1 });
    expect(t.unitsAdjustments.map((a) => a.row)).toEqual(t.compRows);
    // Comps themselves keep their own sale facts; nothing is rejected for the unit mismatch.
    expect(t.comps.map((c) => c.price).sort()).toEqual([...prices].sort());
    expect(t.rejected).toEqual([]);
  });

  it('leaves the kernel result alone when subject units are unknown or no premium is available', () => {
    const plain = computeTier1(deps, subject, { withCeiling: false });
    expect(plain.evidence.valueUsd).toBe(400_000); // by price: 370k 22.68 → 375k 41.58 → 380k 57.58 → 400k 102.0 ≥ 82.2
    expect(plain.unitsAdjustments).toEqual([]);
    const unknown = computeTier1({ ...deps, unitsPremium: PREMIUM }, { ...subject, units: null }, { withCeiling: false });
    expect(unknown.evidence).toEqual(plain.evidence);
  });

  it('summarizes adjusted prices exactly as the kernel does (median, type-7 quartiles, fsd)', () => {
    const res = deps.kernel.queryComps({ ...subject, stratumMask: STRATUM.arv });
    const s = summarizeAdjusted(res.accepted.map((a) => a.adjustedPrice));
    expect(s.n).toBe(res.stats.n);
    expect(s.median).toBeCloseTo(res.stats.median!, 6);
    expect(s.q25).toBeCloseTo(res.stats.q25!, 6);
    expect(s.q75).toBeCloseTo(res.stats.q75!, 6);
    expect(s.fsd).toBeCloseTo(res.stats.fsd!, 12);
  });

  it('summarizes by its definition, bit for bit: median and type-7 quartiles of the prices, scaled MAD of their logs', () => {
    const def = (prices: number[]) => {
      const logs = prices.map(Math.log);
      const mLog = median(logs);
      return { n: prices.length, median: median(prices), q25: quantileType7(prices, 0.25), q75: quantileType7(prices, 0.75), fsd: COMP_POLICY.v.mad_scale * median(logs.map((v) => Math.abs(v - mLog))) };
    };
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(rand() * 14);
      // Ties and near-ties (a rounded grid, then a factor) as re-priced comps give them.
      const prices = Array.from({ length: n }, () => Math.round(rand() * 40) * 10_000 * (rand() < 0.5 ? 1 : 1.0731));
      const got = summarizeAdjusted(prices.map((p) => p + 1));
      const want = def(prices.map((p) => p + 1));
      for (const k of ['n', 'median', 'q25', 'q75', 'fsd'] as const) expect(Object.is(got[k], want[k])).toBe(true);
    }
  });
});
