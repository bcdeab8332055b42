// The canonical bytes of the inputs hash (src/valuation/canonical/bytes.ts): the fast walk writes exactly the
// definition's bytes, on seeded random documents shaped like a valuation's hash parts and on the edge cases of numbers,
// strings and keys; and the bytes decode (with a reader written here from the documented form) back to the JSON value
// they were written from, so two different values never share bytes.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/ingest/generate/rng.js';
import { canonicalBytes, checkedCanonicalBytes } from '../../src/valuation/canonical/bytes.js';

const fast = (v: unknown): string => Buffer.from(canonicalBytes(v)).toString('hex');
const checked = (v: unknown): string => Buffer.from(checkedCanonicalBytes(v)).toString('hex');

const NUMBERS = [0, -0, 1, -1, 7, 10, 99, 100, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e21, 1e-7, 0.1, 5e-324, 123456.789, -0.5, 1.7976931348623157e308];
const STRINGS = ['', 'a', '17011000000001', '2026-11-02', 'quote " and \\ back', 'tab\tnew\nline', 'del\x7f', 'Cafe\u0301', 'Caf\u00e9', '\u2028', 'lone \ud800', 'lone \udc00 low', '\ufffd', '😀', '× sqft'];

function randomValue(rng: Rng, depth: number): unknown {
  const k = rng.int(0, depth > 3 ? 3 : 6);
  if (k === 0) return rng.chance(0.5) ? NUMBERS[rng.int(0, NUMBERS.length - 1)] : rng.uniform(-1e6, 1e6);
  if (k === 1) return STRINGS[rng.int(0, STRINGS.length - 1)];
  if (k === 2) return rng.chance(0.5) ? null : rng.chance(0.5);
  if (k === 3) return rng.int(-5, 5_000_000);
  if (k === 4) return Array.from({ length: rng.int(0, 6) }, () => randomValue(rng, depth + 1));
  return randomRecord(rng, depth + 1);
}

const KEYS = ['pin', 'reason', 'sale_date', 'price', 'dist_mi', 'z', 'A', '_x', '10', '2', 'a b', 'q"k', 'clé'];

function randomRecord(rng: Rng, depth: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const n = rng.int(0, KEYS.length - 1);
  for (let i = 0; i < n; i++) o[KEYS[rng.int(0, KEYS.length - 1)]] = rng.chance(0.1) ? undefined : randomValue(rng, depth);
  return o;
}

/** Records of one shape with, now and then, rows of another shape, a nested member or a missing key between them. */
function recordArray(rng: Rng): unknown[] {
  const odd = rng.int(0, 4);
  return Array.from({ length: rng.int(0, 40) }, (_, i) => {
    const row: Record<string, unknown> = { pin: String(rng.int(0, 1e9)), reason: 'too_far', sale_date: '2025-01-02', price: rng.int(0, 2e6), dist_mi: rng.uniform(0, 3) };
    if (i % 7 === 3 && odd === 1) return { reason: 'x', pin: String(i) };
    if (i % 7 === 3 && odd === 2) row.nested = { a: 1 };
    if (i % 7 === 3 && odd === 3) row.price = undefined;
    return row;
  });
}

/** The JSON value a document stands for: undefined members dropped, strings NFC, -0 as 0. */
function normalized(v: unknown): unknown {
  if (typeof v === 'string') return v.normalize('NFC');
  if (typeof v === 'number') return v === 0 ? 0 : v;
  if (Array.isArray(v)) return v.map(normalized);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k.normalize('NFC'), normalized(x)]));
  return v;
}

/** A reader of the documented form (bytes.ts's header), written independently of the encoder. */
function decode(bytes: Uint8Array): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  const u32 = () => ((p += 4), view.getUint32(p - 4, true));
  const str = (): string => utf8(u32());
  const utf8 = (n: number): string => {
    const end = n + p;
    let s = '';
    while (p < end) {
      const b = bytes[p];
      const len = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
      let cp = len === 1 ? b : b & (0xff >> (len + 1));
      for (let i = 1; i < len; i++) cp = (cp << 6) | (bytes[p + i] & 0x3f);
      p += len;
      s += cp > 0xffff ? String.fromCodePoint(cp) : String.fromCharCode(cp); // a lone surrogate comes back as itself
    }
    return s;
  };
  const value = (): unknown => {
    const tag = bytes[p++];
    switch (tag) {
      case 0: return null;
      case 1: return false;
      case 2: return true;
      case 3: return (p += 8), view.getFloat64(p - 8, true);
      case 4: return str();
      case 5: return Array.from({ length: u32() }, value);
      case 6: return Object.fromEntries(Array.from({ length: u32() }, () => [str(), value()]));
      case 7: {
        // Rows first (a string there: its byte length only), then the strings' bytes in the same order.
        const rows = u32();
        const keys = Array.from({ length: u32() }, str);
        const pending: Array<{ row: Record<string, unknown>; key: string; len: number }> = [];
        const out = Array.from({ length: rows }, () => {
          const row: Record<string, unknown> = {};
          for (const k of keys) {
            if (bytes[p] === 8) p++;
            else if (bytes[p] === 4) (p++, pending.push({ row, key: k, len: u32() }));
            else row[k] = value();
          }
          return row;
        });
        for (const { row, key, len } of pending) row[key] = utf8(len);
        return out;
      }
      default: throw new Error(`tag ${tag} at ${p - 1}`);
    }
  };
  const out = value();
  expect(p).toBe(bytes.length);
  return out;
}

describe('canonical bytes', () => {
  it('fast walk = definition, and decode(bytes) = the JSON value, for 2,000 seeded random documents', () => {
    const rng = new Rng(20261121, 'inputs-hash-fast');
    for (let i = 0; i < 2000; i++) {
      const doc = { evidence: { rejected: recordArray(rng), comps: recordArray(rng) }, other: randomValue(rng, 0), rec: randomRecord(rng, 0) };
      expect(fast(doc)).toBe(checked(doc));
      expect(decode(canonicalBytes(doc))).toEqual(normalized(doc));
    }
  });

  it('writes tables of one shape as the definition does (edge strings and numbers, undefined members)', () => {
    const rng = new Rng(20261127, 'inputs-hash-records');
    for (let i = 0; i < 500; i++) {
      const rows = Array.from({ length: rng.int(1, 30) }, () => ({
        z: STRINGS[rng.int(0, STRINGS.length - 1)], pin: String(rng.int(0, 1e9)), a: NUMBERS[rng.int(0, NUMBERS.length - 1)] * (rng.chance(0.5) ? -1 : 1),
        m: rng.chance(0.2) ? undefined : rng.chance(0.5) ? null : rng.chance(0.5),
      }));
      const doc = { evidence: { rejected: rows }, n: rows.length };
      expect(fast(doc)).toBe(checked(doc));
      expect(decode(canonicalBytes(doc))).toEqual(normalized(doc));
    }
  });

  it('gives one value one encoding: key order, undefined members, NFC variants and -0 do not count', () => {
    expect(fast([{ a: 1, b: 'x' }, { b: 'y', a: 2 }])).toBe(fast([{ b: 'x', a: 1 }, { a: 2, b: 'y' }]));
    expect(fast([{ a: 1, b: undefined }])).toBe(fast([{ a: 1 }]));
    expect(fast({ s: 'Cafe\u0301' })).toBe(fast({ s: 'Caf\u00e9' }));
    expect(fast({ 'cle\u0301': 1 })).toBe(fast({ 'cl\u00e9': 1 }));
    expect(fast([-0])).toBe(fast([0]));
  });

  it.each([
    ['a number and its text', [1], ['1']],
    ['a lone surrogate and U+FFFD', ['\ud800'], ['\ufffd']],
    ['a row lacking a key and a row with it null', [{ a: 1, b: null }], [{ a: 1 }]],
    ['a table and the same rows with a nested member', [{ a: 1 }], [{ a: 1, n: {} }]],
    ['two strings and their concatenation', ['ab', 'c'], ['a', 'bc']],
    ['an empty array and an empty object', [[]], [{}]],
  ])('tells apart %s', (_label, a, b) => {
    expect(fast(a)).not.toBe(fast(b));
  });

  it('writes numbers and strings at their edges as the definition does (-0 as 0, int32 limits, NFC, surrogates)', () => {
    for (const v of [...NUMBERS, ...NUMBERS.map((x) => -x), ...STRINGS]) {
      expect(fast([v])).toBe(checked([v]));
      expect(decode(canonicalBytes([v]))).toEqual(normalized([v]));
    }
  });

  it.each([
    ['NaN', { x: Number.NaN }],
    ['Infinity', [Number.NEGATIVE_INFINITY]],
    ['NaN inside a table', [{ a: 1 }, { a: Number.NaN }]],
    ['undefined in an array', [1, undefined]],
    ['a Date', { d: new Date(0) }],
    ['a class instance in a record array', [{ a: 1 }, Object.assign(Object.create({ inherited: 1 }), { a: 2 })]],
    ['a function', { f: () => 1 }],
    ['a bigint', { n: 1n }],
    ['keys that collide after NFC', { 'cle\u0301': 1, 'cl\u00e9': 2 }],
  ])('refuses %s with internal_error (the definition names it)', (_label, v) => {
    expect(() => canonicalBytes(v)).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });
});
