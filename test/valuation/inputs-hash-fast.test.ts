// canonicalJson's fast path (its own walk; flat record arrays serialized natively; sorted key lists cached per shape)
// writes exactly the text of the checked canonical walk, on seeded random documents shaped like a valuation's hash parts (record arrays
// of one shape with other shapes between them) and on the edge cases of numbers, strings and keys.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/ingest/generate/rng.js';
import { canonicalJson } from '../../src/valuation/inputs-hash.js';

/** The checked walk alone: canonicalJson takes it whenever the path is not the root's. */
const checked = (v: unknown): string => canonicalJson(v, '$ref');
const written = (v: unknown): string => canonicalJson(v);

const NUMBERS = [0, -0, 1, -1, 7, 10, 99, 100, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e21, 1e-7, 0.1, 5e-324, 123456.789, -0.5, 1.7976931348623157e308];
const STRINGS = ['', 'a', '17011000000001', '2026-11-02', 'quote " and \\ back', 'tab\tnew\nline', 'del\x7f', 'Cafe\u0301', 'Caf\u00e9', '\u2028', 'lone \ud800', '😀'];

function randomValue(rng: Rng, depth: number): unknown {
  const k = rng.int(0, depth > 3 ? 3 : 6);
  if (k === 0) return rng.chance(0.5) ? NUMBERS[rng.int(0, NUMBERS.length - 1)] : rng.uniform(-1e6, 1e6);
  if (k === 1) return STRINGS[rng.int(0, STRINGS.length - 1)];
  if (k === 2) return rng.chance(0.5) ? null : rng.chance(0.5);
  if (k === 3) return rng.int(-5, 5_000_000);
  if (k === 4) return Array.from({ length: rng.int(0, 6) }, () => randomValue(rng, depth + 1));
  return randomRecord(rng, depth + 1);
}

const KEYS = ['pin', 'reason', 'sale_date', 'price', 'dist_mi', 'z', 'A', '_x', '10', '2', 'a b', 'q"k'];

function randomRecord(rng: Rng, depth: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const n = rng.int(0, KEYS.length - 1);
  for (let i = 0; i < n; i++) o[KEYS[rng.int(0, KEYS.length - 1)]] = rng.chance(0.1) ? undefined : randomValue(rng, depth);
  return o;
}

/** An array of records sharing one shape, with a few of another shape between them (the shape cache's cases). */
function recordArray(rng: Rng): unknown[] {
  return Array.from({ length: rng.int(0, 40) }, (_, i) =>
    i % 7 === 3 ? { reason: 'x', pin: String(i) } : { pin: String(rng.int(0, 1e9)), reason: 'too_far', sale_date: '2025-01-02', price: rng.int(0, 2e6), dist_mi: rng.uniform(0, 3) },
  );
}

describe('canonicalJson fast path', () => {
  it('writes what the checked walk writes, for 2,000 seeded random documents', () => {
    const rng = new Rng(20261121, 'inputs-hash-fast');
    for (let i = 0; i < 2000; i++) {
      const doc = { evidence: { rejected: recordArray(rng), comps: recordArray(rng) }, other: randomValue(rng, 0), rec: randomRecord(rng, 0) };
      expect(written(doc)).toBe(checked(doc));
    }
  });

  it('writes arrays of flat records of one shape as the checked walk does (edge strings and numbers, undefined members)', () => {
    const rng = new Rng(20261127, 'inputs-hash-records');
    for (let i = 0; i < 500; i++) {
      // One shape throughout (keys in a fixed unsorted order), members drawn from the edge values: non-NFC strings
      // and lone surrogates must be normalized or escaped exactly as the walk does, undefined members dropped.
      const rows = Array.from({ length: rng.int(1, 30) }, () => ({
        z: STRINGS[rng.int(0, STRINGS.length - 1)], pin: String(rng.int(0, 1e9)), a: NUMBERS[rng.int(0, NUMBERS.length - 1)] * (rng.chance(0.5) ? -1 : 1),
        m: rng.chance(0.2) ? undefined : rng.chance(0.5) ? null : rng.chance(0.5),
      }));
      const doc = { evidence: { rejected: rows }, n: rows.length };
      expect(written(doc)).toBe(checked(doc));
    }
  });

  it('writes numbers and strings at their edges as JSON does (-0 as 0, int32 limits, escapes, NFC)', () => {
    for (const v of [...NUMBERS, ...NUMBERS.map((x) => -x), ...STRINGS]) expect(written([v])).toBe(checked([v]));
  });

  it.each([
    ['NaN', { x: Number.NaN }],
    ['Infinity', [Number.NEGATIVE_INFINITY]],
    ['undefined in an array', [1, undefined]],
    ['a Date', { d: new Date(0) }],
    ['a class instance in a record array', [{ a: 1 }, Object.assign(Object.create({ inherited: 1 }), { a: 2 })]],
    ['a function', { f: () => 1 }],
  ])('refuses %s with internal_error (the checked walk names it)', (_label, v) => {
    expect(() => canonicalJson(v)).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });
});
