// The fast walk of the canonical bytes (bytes.ts defines them): no path strings, no member arrays, sorted key lists
// cached per shape, a flat record array's rows read key by key in the shape's sorted order. It writes exactly the
// definition's bytes or throws REFUSED, and then bytes.ts writes the value with the definition's walk (which names
// the culprit of an error, or handles the rare shapes declined here: non-ASCII keys, a record array whose rows differ
// in keys or leave a key undefined in every row).
import { type ByteSink, TAG } from './byte-sink.js';

/** Thrown when the value needs the definition's walk (never escapes canonicalBytes). */
export const REFUSED = Symbol('canonical-bytes-refused');

export function encodeFast(sink: ByteSink, value: unknown): void {
  if (value === null) return sink.tag(TAG.null);
  switch (typeof value) {
    case 'boolean':
      return sink.tag(value ? TAG.true : TAG.false);
    case 'number':
      if (!Number.isFinite(value)) throw REFUSED;
      return sink.number(value);
    case 'string':
      sink.tag(TAG.string);
      return sink.str(value);
    case 'object':
      break;
    default:
      throw REFUSED;
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && encodeTable(sink, value)) return;
    sink.tag(TAG.array);
    sink.u32(value.length);
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) throw REFUSED;
      encodeFast(sink, value[i]);
    }
    return;
  }
  const obj = value as Record<string, unknown>;
  if (!isPlain(obj)) throw REFUSED;
  const { sorted } = shapeOf(obj);
  sink.tag(TAG.object);
  const countAt = sink.pos;
  sink.u32(0);
  let count = 0;
  for (let i = 0; i < sorted.length; i++) {
    const v = obj[sorted[i]];
    if (v === undefined) continue;
    sink.str(sorted[i]);
    encodeFast(sink, v);
    count++;
  }
  sink.view.setUint32(countAt, count, true);
}

function isPlain(obj: object): boolean {
  const proto = Object.getPrototypeOf(obj);
  return proto === Object.prototype || proto === null;
}

/** Keys a table's presence mask covers (a bit per key); wider record shapes take the definition's walk. */
const MAX_TABLE_KEYS = 30;

/**
 * Writes `rows` as a table when every row is a plain object of the first row's keys with only scalar members; returns
 * false (nothing written) when the array is not a table (a row is not a plain object, or a member is an object or an
 * array); REFUSED when the definition's walk must decide (rows of other keys, a key undefined in every row).
 */
function encodeTable(sink: ByteSink, rows: unknown[]): boolean {
  const first = rows[0];
  if (first === null || typeof first !== 'object' || Array.isArray(first) || !isPlain(first)) return false;
  const shape = shapeOf(first as Record<string, unknown>);
  const { raw, sorted, rawIndex } = shape;
  const n = raw.length;
  if (n > MAX_TABLE_KEYS) throw REFUSED;
  const start = sink.pos;
  sink.tag(TAG.table);
  sink.u32(rows.length);
  sink.u32(n);
  for (let k = 0; k < n; k++) sink.str(sorted[k]);
  let defined = 0;
  let text = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Record<string, unknown>;
    if (row === null || typeof row !== 'object' || Array.isArray(row) || !isPlain(row)) return notTable(sink, start);
    // The row's values in insertion order, its keys checked against the shape's on the way (for-in reads a member
    // through the enumeration cache; a load by a key from the sorted list is a megamorphic lookup per member).
    let m = 0;
    for (const k in row) {
      if (raw[m] !== k) throw REFUSED;
      values[m++] = row[k];
    }
    if (m !== n) throw REFUSED;
    for (let k = 0; k < n; k++) {
      const v = values[rawIndex[k]];
      switch (typeof v) {
        case 'number':
          if (!Number.isFinite(v)) throw REFUSED;
          sink.number(v);
          break;
        case 'string':
          // Its byte length if ASCII (checked once for the whole table below), its bytes after the rows.
          sink.tag(TAG.string);
          sink.u32(v.length);
          text += v;
          break;
        case 'boolean':
          sink.tag(v ? TAG.true : TAG.false);
          break;
        case 'undefined':
          sink.tag(TAG.absent);
          continue;
        case 'object':
          if (v !== null) return notTable(sink, start);
          sink.tag(TAG.null);
          break;
        default:
          throw REFUSED;
      }
      defined |= 1 << k;
    }
  }
  if (defined !== 2 ** n - 1) throw REFUSED;
  // One write for every string of the table; a non-ASCII one (NFC, other byte lengths): the definition's walk.
  // (Concatenated as they come: V8 keeps the pieces as a rope until the write flattens it once; a join of the
  // collected strings cost more than the rest of the table.)
  return sink.ascii(text) ? true : refused();
}

function refused(): never {
  throw REFUSED;
}

/** One row's values in its keys' insertion order (reused: a table is written row by row). */
const values: unknown[] = [];

function notTable(sink: ByteSink, start: number): false {
  sink.pos = start;
  return false;
}

/**
 * An object's keys in insertion order and sorted (UTF-16 code unit order, as the definition sorts ASCII keys), and
 * for each sorted key its index in insertion order.
 */
type Shape = { raw: string[]; sorted: string[]; rawIndex: number[] };
/** Shapes seen lately: a valuation's document has a few dozen, and the next valuation the same ones. */
const recentShapes: Shape[] = [];
const RECENT_SHAPES_MAX = 64;
const NON_ASCII = /[^\x00-\x7f]/;

/** True when obj's enumerable keys are exactly `raw`, in order (for-in: no key array per object). */
function hasKeys(obj: object, raw: readonly string[]): boolean {
  let i = 0;
  for (const k in obj) if (raw[i++] !== k) return false;
  return i === raw.length;
}

function shapeOf(obj: Record<string, unknown>): Shape {
  for (let i = 0; i < recentShapes.length; i++) if (hasKeys(obj, recentShapes[i].raw)) return recentShapes[i];
  const raw = Object.keys(obj);
  // Non-ASCII keys need NFC and a collision check: the definition's walk.
  for (const k of raw) if (NON_ASCII.test(k)) throw REFUSED;
  if (recentShapes.length >= RECENT_SHAPES_MAX) recentShapes.length = 0;
  const sorted = [...raw].sort();
  const shape = { raw, sorted, rawIndex: sorted.map((k) => raw.indexOf(k)) };
  recentShapes.push(shape);
  return shape;
}
