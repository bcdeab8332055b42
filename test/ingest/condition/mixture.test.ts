// The three-class residual mixture (mixture.ts): dated and renovated share one spread (a tied-variance M-step), so EM
// cannot settle on a wide "renovated" class lying on top of the dated one. Residuals drawn from known classes (a seeded
// generator): distressed far below with a wide spread, dated at 0, renovated 0.13 above, both with sd 0.18.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/ingest/generate/rng.js';
import { fitMixture } from '../../../src/ingest/condition/mixture.js';

function draw(seed: number, n: number, share: [number, number, number]): Float64Array {
  const rng = new Rng(seed, 'mixture-test');
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = rng.uniform(0, 1);
    r[i] = u < share[0] ? -0.45 + 0.6 * rng.normal() : u < share[0] + share[1] ? 0.18 * rng.normal() : 0.13 + 0.18 * rng.normal();
  }
  return r;
}

describe('fitMixture', () => {
  it('gives dated and renovated one spread and keeps their means apart', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = draw(seed, 20_000, [0.15, 0.45, 0.4]);
      const m = fitMixture(r, new Float64Array(r.length), new Uint8Array(r.length), 1)!;
      expect(m.sd[1], `seed ${seed}`).toBe(m.sd[2]);
      expect(m.mean[2] - m.mean[1], `seed ${seed}: renovated above dated`).toBeGreaterThan(0.06);
      expect(m.mean[0], `seed ${seed}: distressed far below`).toBeLessThan(-0.2);
    }
  });

  it('is null with too few residuals for three classes', () => {
    expect(fitMixture(draw(1, 60, [0.2, 0.4, 0.4]), new Float64Array(60), new Uint8Array(60), 1)).toBeNull();
  });
});
