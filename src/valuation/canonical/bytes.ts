// Canonical bytes: the key-sorted binary encoding of a JSON value that the inputs hash digests (HASH_DOMAIN v2). It
// writes numbers as their IEEE-754 bytes (no decimal formatting: ~250 µs of a dense subject's 100 KB v1 text went to
// formatting doubles), a flat record array's sorted keys once rather than per record, and its strings' bytes in one
// run after its rows (one native UTF-8 write for a thousand rejected candidates' strings rather than one each).
//
// The form (little-endian; u32 = 4-byte unsigned; str(s) = u32 byte length, then the UTF-8 of NFC(s), a lone
// surrogate as its own 3-byte sequence):
//   null 00 · false 01 · true 02 · number 03 f64 (-0 as 0; NaN/±Infinity refused) · string 04 str(s)
//   array 05 u32(count) items…                                    (undefined inside an array refused)
//   object 06 u32(count) [str(key) value]…   defined members only, keys in UTF-16 code unit order of their NFC form
//   table 07 u32(rows) u32(keys) str(key)… then per row, per key: its value, or 08 when the row lacks it — except
//         that a string there is 04 u32(byte length) only — then the bytes of the table's strings, in that order
// An array is written as a table exactly when it is non-empty and every item is a plain object whose defined members
// are all null, boolean, number or string; the table's keys are the sorted union of the rows' defined keys. So the
// bytes are a function of the JSON value alone (insertion order, undefined members and NFC variants do not count),
// and the tags make them decodable: two different values never write the same bytes.
// Refused with internal_error, as canonical JSON refuses them: non-finite numbers, undefined inside arrays, bigint,
// functions, symbols, non-plain objects (Date, Map, typed arrays…), keys that collide after NFC.
import { ByteSink, TAG } from './byte-sink.js';
import { encodeFast, REFUSED } from './bytes-fast.js';
import { hashError } from './json.js';

const sink = new ByteSink();

/**
 * The canonical bytes of a value: the fast walk (bytes-fast.ts) for the common shapes, this file's walk — the
 * definition, with errors that name the path — whenever the fast one declines. A view of a reused buffer: valid until
 * the next call.
 */
export function canonicalBytes(value: unknown): Uint8Array {
  sink.pos = 0;
  try {
    encodeFast(sink, value);
    return sink.bytes.subarray(0, sink.pos);
  } catch (e) {
    if (e !== REFUSED) throw e;
  }
  return checkedCanonicalBytes(value);
}

/** The definition's walk alone (the tests compare the fast walk with it). Same reuse rule as canonicalBytes. */
export function checkedCanonicalBytes(value: unknown): Uint8Array {
  sink.pos = 0;
  encode(value, '$');
  return sink.bytes.subarray(0, sink.pos);
}

function encode(value: unknown, path: string): void {
  if (value === null) return sink.tag(TAG.null);
  switch (typeof value) {
    case 'boolean':
      return sink.tag(value ? TAG.true : TAG.false);
    case 'number':
      if (!Number.isFinite(value)) throw hashError(path, `non-finite number ${value}`);
      return sink.number(value);
    case 'string':
      sink.tag(TAG.string);
      return sink.str(value);
    case 'object':
      if (!Array.isArray(value)) return encodeObject(value as Record<string, unknown>, path);
      return isTable(value) ? encodeTable(value as Record<string, unknown>[], path) : encodeArray(value, path);
    default:
      throw hashError(path, `unsupported ${typeof value}`);
  }
}

function encodeArray(items: unknown[], path: string): void {
  sink.tag(TAG.array);
  sink.u32(items.length);
  items.forEach((item, i) => {
    if (item === undefined) throw hashError(`${path}[${i}]`, 'undefined inside an array');
    encode(item, `${path}[${i}]`);
  });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const isScalar = (v: unknown): boolean => v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string';

function isTable(items: unknown[]): boolean {
  return items.length > 0 && items.every((row) => isPlainObject(row) && Object.values(row).every((v) => v === undefined || isScalar(v)));
}

/** An object's defined members as [NFC key, value], in canonical key order; refuses a non-plain object and NFC collisions. */
function members(obj: Record<string, unknown>, path: string): Array<readonly [string, unknown]> {
  if (!isPlainObject(obj)) {
    const proto = Object.getPrototypeOf(obj) as { constructor?: { name?: string } } | null;
    throw hashError(path, `non-plain object (${proto?.constructor?.name ?? 'unknown'})`);
  }
  const out = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .map((k) => [k.normalize('NFC'), obj[k]] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (let i = 1; i < out.length; i++) {
    if (out[i][0] === out[i - 1][0]) throw hashError(path, `keys collide after NFC normalization: ${out[i][0]}`);
  }
  return out;
}

function encodeObject(obj: Record<string, unknown>, path: string): void {
  const m = members(obj, path);
  sink.tag(TAG.object);
  sink.u32(m.length);
  for (const [key, v] of m) {
    sink.str(key);
    encode(v, `${path}.${key}`);
  }
}

function encodeTable(rows: Record<string, unknown>[], path: string): void {
  const byRow = rows.map((row, i) => new Map(members(row, `${path}[${i}]`)));
  const keys = [...new Set(byRow.flatMap((m) => [...m.keys()]))].sort();
  sink.tag(TAG.table);
  sink.u32(rows.length);
  sink.u32(keys.length);
  for (const key of keys) sink.str(key);
  const strings = new ByteSink();
  byRow.forEach((m, i) => {
    for (const key of keys) {
      const v = m.get(key);
      if (!m.has(key)) sink.tag(TAG.absent);
      else if (typeof v !== 'string') encode(v, `${path}[${i}].${key}`);
      else {
        sink.tag(TAG.string);
        sink.u32(strings.text(v));
      }
    }
  });
  sink.append(strings.bytes.subarray(0, strings.pos));
}
