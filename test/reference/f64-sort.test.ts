// sortF64Prefix sorts a prefix in place into the built-in TypedArray order (NaNs last) without touching the rest.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/ingest/generate/rng.js';
import { F64Scratch, sortF64Prefix } from '../../src/reference/f64-sort.js';

function check(values: number[], tail: number[] = []): void {
  const a = Float64Array.from([...values, ...tail]);
  const out = sortF64Prefix(a, values.length);
  expect(Array.from(out)).toEqual(Array.from(Float64Array.from(values).sort()));
  expect(Array.from(a.subarray(values.length))).toEqual(tail);
}

describe('sortF64Prefix', () => {
  it('matches Float64Array.prototype.sort on seeded random arrays of every size up to 300', () => {
    const rng = new Rng(20261121, 'f64-sort');
    for (let n = 0; n <= 300; n++) {
      const xs = Array.from({ length: n }, () => (rng.chance(0.2) ? rng.int(0, 5) : rng.uniform(-1e6, 1e6)));
      check(xs, [rng.uniform(0, 1), 42]);
    }
  });

  it('puts NaNs last and handles sorted, reversed and constant input', () => {
    check([3, Number.NaN, 1, Number.NaN, 2, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]);
    const up = Array.from({ length: 200 }, (_, i) => i);
    check(up);
    check([...up].reverse());
    check(Array.from({ length: 100 }, () => 7));
  });

  it('the scratch buffer grows and keeps at least the slots asked for', () => {
    const s = new F64Scratch();
    expect(s.take(10).length).toBeGreaterThanOrEqual(10);
    expect(s.take(10_000).length).toBeGreaterThanOrEqual(10_000);
  });
});
