// Input values for the fuzz suite: plausible ones derived from an operation's own JSON Schema (so calls get past
// validation and reach the handlers), hostile ones (wrong types, huge numbers and strings, unicode, deep nesting,
// other owners' ids), and mutations that turn the first into the second.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';

type Schema = {
  type?: string;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  prefixItems?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
};

/** What the fuzz knows of the served data: real and other owners' ids, real addresses. */
export type FuzzPools = { ids: string[]; addresses: string[] };

/** Cook/Lake, where a valuation has data: lat/lon drawn here reach the valuation path, not an out-of-area refusal. */
const LAT = { min: 41.6, max: 42.5 };
const LON = { min: -88.3, max: -87.5 };

function numberFor(s: Schema, key: string, integer: boolean): fc.Arbitrary<number> {
  if (key === 'lat' || key === 'lon') return fc.double({ ...(key === 'lat' ? LAT : LON), noNaN: true });
  const min = Math.max(s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1e-6 : -1e6), -1e9);
  const max = Math.min(s.maximum ?? 1e7, 1e9);
  return integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function stringFor(s: Schema, key: string, pools: FuzzPools): fc.Arbitrary<string> {
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
  const plain = fc.string({ minLength: Math.max(1, s.minLength ?? 0), maxLength: Math.min(s.maxLength ?? 40, 40) });
  if (/(^|_)id$|ids/.test(key) && pools.ids.length > 0) return fc.oneof(fc.constantFrom(...pools.ids), plain);
  if (key === 'address' && pools.addresses.length > 0) return fc.oneof(fc.constantFrom(...pools.addresses), plain);
  return plain;
}

/** A value the schema accepts (mostly: patterns and ranges are honoured, cross-field rules are not). */
export function plausible(s: Schema, pools: FuzzPools, key = '', depth = 0): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'number':
      return numberFor(s, key, false);
    case 'integer':
      return numberFor(s, key, true);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringFor(s, key, pools);
    case 'array':
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => plausible(p, pools, key, depth + 1)));
      return fc.array(plausible(s.items ?? {}, pools, key, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) });
    case 'object': {
      if (!s.properties || depth > 3) return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      const props = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, plausible(p, pools, k, depth + 1)]));
      return fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const nest = (depth: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { d: v };
  return v;
};

/** Values no schema field should take: each must come back as a 4xx (or be ignored), never a 5xx. */
export function hostile(pools: FuzzPools): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(null, true, false, 0, -0, -1, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, 2 ** 63, 1e21, 0.1 + 0.2, '', ' ', '0', 'NaN', 'Infinity', '-Infinity', '1e309', '0x10', 'true', 'null', '[]', '{}'),
    fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\ufeff', '𝕏'.repeat(300), 'é'.repeat(5_000), '../'.repeat(50), '%00', '<script>', "' OR 1=1 --"),
    fc.string({ unit: 'binary', maxLength: 64 }),
    fc.string({ unit: 'grapheme', maxLength: 64 }),
    fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
    fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map((b) => b.toString()),
    fc.integer({ min: 2, max: 40 }).map((d) => nest(d, 1)),
    fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
    fc.constantFrom(...(pools.ids.length > 0 ? pools.ids : ['none'])),
  );
}

/** JSON text spliced in as is by `toJsonText`: nesting thousands deep, which neither JSON.stringify nor fast-check walk. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A nesting depth around and far beyond the doors' limit (json_max_depth), as raw JSON text. */
export const deepNesting = fc.constantFrom(31, 32, 33, 64, 2_000, 5_000).map((d) => new RawJson(`${'['.repeat(d)}"leaf"${']'.repeat(d)}`));

/** JSON text of a value that may hold RawJson parts (each spliced in where it sits). */
export function toJsonText(v: unknown): string {
  const raws: string[] = [];
  const tag = randomUUID(); // a placeholder no generated string can spell
  const text = JSON.stringify(v, (_k, x: unknown) => (x instanceof RawJson ? `${tag}:${raws.push(x.text) - 1}` : x)) ?? 'null';
  return text.replace(new RegExp(`"${tag}:(\\d+)"`, 'g'), (_m, i: string) => raws[Number(i)]);
}

/** Mutates an argument object: drop a key, add an extra key, set a key to a hostile value, or replace it whole. */
export function mutated(base: fc.Arbitrary<unknown>, pools: FuzzPools): fc.Arbitrary<unknown> {
  const key = fc.oneof(fc.constantFrom('id', 'property_id', 'lat', 'lon', 'price', 'units', 'payload', 'assumptions', 'name', 'ids', 'body', 'days', 'after'), fc.string({ maxLength: 12 }));
  return fc.oneof(
    { weight: 4, arbitrary: base },
    { weight: 2, arbitrary: fc.tuple(base, fc.nat()).map(([b, n]) => dropKey(b, n)) },
    { weight: 2, arbitrary: fc.tuple(base, key, fc.jsonValue({ maxDepth: 2 })).map(([b, k, v]) => withKey(b, `${k}_extra`, v)) },
    { weight: 4, arbitrary: fc.tuple(base, fc.nat(), hostile(pools)).map(([b, n, v]) => withKey(b, keyAt(b, n), v)) },
    { weight: 1, arbitrary: fc.tuple(base, fc.nat(), deepNesting).map(([b, n, v]) => withKey(b, keyAt(b, n), v)) },
    { weight: 1, arbitrary: hostile(pools) },
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keyAt = (b: unknown, n: number): string => {
  const keys = isObject(b) ? Object.keys(b) : [];
  return keys.length > 0 ? keys[n % keys.length] : 'x';
};
const dropKey = (b: unknown, n: number): unknown => {
  if (!isObject(b)) return b;
  const { [keyAt(b, n)]: _dropped, ...rest } = b;
  return rest;
};
const withKey = (b: unknown, k: string, v: unknown): unknown => (isObject(b) ? { ...b, [k]: v } : { [k]: v });
