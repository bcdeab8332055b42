// Split conformal has one served definition, valuation/calibration/conformal.ts (the calibration job, the hedonic fit
// and the oracle use it); the kernel's avm_conformal is the same definition in Rust. These tests hold the two equal on
// every n (the native addon's `conformal` too), and both to the exact ranks ⌊(n+1)α/2⌋ and ⌈(n+1)(1−α/2)⌉ computed in integers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VALUATION_DISPLAY } from '../../src/registry/groups/valuation.js';
import { conformalRanks, splitConformalQuantiles } from '../../src/valuation/calibration/conformal.js';
import { nativeAddon } from '../../src/kernel/index.js';
import { kernelConformalInterval, kernelConformalQuantile } from './support/kernel-conformal.js';

const clamp = (rank: number, n: number): number => Math.min(n, Math.max(1, rank));

/** Exact two-sided ranks at a coverage of `pct` percent: α/2 = (100 − pct)/200, 1 − α/2 = (100 + pct)/200. */
function exactRanks(n: number, pct: number): { rankLo: number; rankHi: number } {
  return { rankLo: clamp(Math.floor(((n + 1) * (100 - pct)) / 200), n), rankHi: clamp(Math.ceil(((n + 1) * (100 + pct)) / 200), n) };
}

/** 1, 2, …, n: the kernel's order statistic at rank k is then k itself. */
const ranksAsValues = (n: number): Float64Array => Float64Array.from({ length: n }, (_, i) => i + 1);

const N_MAX = 3000;

describe('conformalRanks(n, coverage)', () => {
  it('gives the exact rational ranks for every n ≤ 3,000 at every whole-percent coverage (the EPS guard)', () => {
    for (let pct = 1; pct <= 99; pct++) {
      const wrong = [];
      for (let n = 1; n <= N_MAX; n++) {
        const got = conformalRanks(n, pct / 100), want = exactRanks(n, pct);
        if (got.rankLo !== want.rankLo || got.rankHi !== want.rankHi) wrong.push(n);
      }
      expect(wrong, `coverage ${pct}%: n with other ranks`).toEqual([]);
    }
  });
});

describe('kernel avm_conformal vs conformalRanks', () => {
  // The served coverage (80%) and the other round ones; α is passed as the decimal literal (0.2, not 1 − 0.8).
  it.each([Math.round(VALUATION_DISPLAY.v.interval_coverage * 100), 50, 90, 95])('agree on every n ≤ 3,000 at a coverage of %i percent', (pct) => {
    const alpha = (100 - pct) / 100;
    for (let n = 1; n <= N_MAX; n++) {
      const { rankLo, rankHi } = conformalRanks(n, pct / 100);
      expect(kernelConformalInterval(ranksAsValues(n), alpha), `n=${n}`).toEqual({ lo: rankLo, hi: rankHi });
    }
  });

  it('splitConformalQuantiles and the kernel take the same order statistics of price / estimate', () => {
    const pair = fc.tuple(fc.double({ min: 50_000, max: 2e6, noNaN: true }), fc.double({ min: 0.5, max: 2, noNaN: true }));
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 400 }), (pairs) => {
        const est = pairs.map(([e]) => e);
        const price = pairs.map(([e, r]) => e * r);
        const q = splitConformalQuantiles(est, price, 0.8);
        expect(kernelConformalInterval(price.map((p, i) => p / est[i]), 0.2)).toEqual({ lo: q.qLo, hi: q.qHi });
      }),
      { numRuns: 300, seed: 20261122 },
    );
  });

  it('differ when α arrives with round-off: the kernel has no EPS guard, so the jobs do not route through it', () => {
    // α = 1 − 0.8 = 0.19999999999999996: at n = 19 the kernel floors 20 × 0.09999999999999998 = 1.9999999999999996 to
    // rank 1; the exact rank (and conformalRanks) is ⌊20 × 0.1⌋ = 2.
    expect(kernelConformalInterval(ranksAsValues(19), 1 - 0.8).lo).toBe(1);
    expect(conformalRanks(19, 0.8).rankLo).toBe(2);
  });
});

describe('kernel avm_conformal (one-sided and input checks)', () => {
  it('one-sided rank ⌈(n+1)(1−α)⌉: n = 9, α = 0.2 → ⌈8⌉ = 8; exact for every n ≤ 3,000 at α = 0.2 and 0.1', () => {
    expect(kernelConformalQuantile([9, 3, 5, 1, 7, 2, 8, 4, 6], 0.2)).toBe(8);
    for (const pct of [80, 90]) {
      for (let n = 1; n <= N_MAX; n++) expect(kernelConformalQuantile(ranksAsValues(n), (100 - pct) / 100)).toBe(clamp(Math.ceil(((n + 1) * pct) / 100), n));
    }
  });

  it('maps an empty or non-finite sample to validation_failed', () => {
    expect(() => kernelConformalInterval([], 0.2)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => kernelConformalInterval([1, Number.NaN], 0.2)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe.skipIf(!nativeAddon() && !process.env.CI)('native addon conformal = WASM avm_conformal', () => {
  it('same bounds for every n ≤ 3,000 at 80/90%, two- and one-sided, and on random samples', () => {
    const addon = nativeAddon() as NonNullable<ReturnType<typeof nativeAddon>>;
    for (const alpha of [0.2, 0.1]) {
      for (let n = 1; n <= N_MAX; n += 7) {
        const v = ranksAsValues(n);
        const { lo, hi } = kernelConformalInterval(v, alpha);
        expect(Array.from(addon.conformal(v, alpha, true)), `n=${n}`).toEqual([lo, hi]);
        expect(addon.conformal(v, alpha, false)[0], `n=${n}`).toBe(kernelConformalQuantile(v, alpha));
      }
    }
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.2, max: 5, noNaN: true }), { minLength: 1, maxLength: 400 }), (xs) => {
        const { lo, hi } = kernelConformalInterval(xs, 0.2);
        expect(Array.from(addon.conformal(Float64Array.from(xs), 0.2, true))).toEqual([lo, hi]);
      }),
      { numRuns: 300, seed: 20261127 },
    );
    expect(() => addon.conformal(new Float64Array(0), 0.2, true)).toThrow(/avm-kernel error 7/);
  });
});
