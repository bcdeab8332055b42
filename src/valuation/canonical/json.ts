// Canonical JSON text: the form the model registry's artifact digest hashes (registry/model-registry.ts). The inputs
// hash had used it too until HASH_DOMAIN v2 (../inputs-hash.ts), which hashes the canonical bytes of bytes.ts.
import { AppError } from '../../errors/app-error.js';

/** A JSON value; `undefined` object members are dropped, as in JSON. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

/**
 * Canonical JSON: object keys sorted recursively by UTF-16 code unit order (Array.prototype.sort default);
 * `undefined` members dropped; arrays keep their order; strings NFC-normalized; numbers in ECMAScript's shortest
 * round-trip form (Number.prototype.toString, identical on every conforming engine), -0 written as 0.
 * Rejected with internal_error: NaN/±Infinity, undefined inside arrays, bigint, functions, symbols, and
 * non-plain objects (Date, Map, typed arrays…), so nothing is silently coerced.
 */
export function canonicalJson(value: unknown, path = '$'): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw hashError(path, `non-finite number ${value}`);
      return JSON.stringify(value === 0 ? 0 : value);
    case 'string':
      return JSON.stringify(value.normalize('NFC'));
    case 'object':
      return Array.isArray(value) ? canonicalArray(value, path) : canonicalObject(value as Record<string, unknown>, path);
    default:
      throw hashError(path, `unsupported ${typeof value}`);
  }
}

function canonicalArray(items: unknown[], path: string): string {
  const parts = items.map((item, i) => {
    if (item === undefined) throw hashError(`${path}[${i}]`, 'undefined inside an array');
    return canonicalJson(item, `${path}[${i}]`);
  });
  return `[${parts.join(',')}]`;
}

function canonicalObject(obj: Record<string, unknown>, path: string): string {
  const proto = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null) throw hashError(path, `non-plain object (${proto?.constructor?.name ?? 'unknown'})`);
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .map((k) => [k.normalize('NFC'), k] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (let i = 1; i < keys.length; i++) {
    if (keys[i][0] === keys[i - 1][0]) throw hashError(path, `keys collide after NFC normalization: ${keys[i][0]}`);
  }
  return `{${keys.map(([norm, raw]) => `${JSON.stringify(norm)}:${canonicalJson(obj[raw], `${path}.${norm}`)}`).join(',')}}`;
}

/** The error of a value no canonical form takes (also bytes.ts's): internal_error naming the path. */
export function hashError(path: string, what: string): AppError {
  return new AppError('internal_error', `inputs hash: ${what} at ${path}`);
}
