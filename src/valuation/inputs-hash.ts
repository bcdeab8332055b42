// inputs_hash: the reproducibility fingerprint of a valuation over exactly the inputs the spec lists. Not
// anonymization, not a security hash, not a credential. Canonical form below is versioned by HASH_DOMAIN.
import { createHash } from 'node:crypto';
import type { Subject } from '../contracts/subject.js';
import { AppError } from '../errors/app-error.js';

/** A JSON value; `undefined` object members are dropped, as in JSON. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

/**
 * The spec's listed inputs, one member each. Everything a valuation depends on goes in exactly one member;
 * nothing time-of-day (as_of, request ids) goes in, so a re-run on the same inputs gives the same hash.
 */
export type InputsHashParts = {
  /** Subject identity: the Subject object as valued. */
  subject: Subject;
  /** Tract inputs: geoid, segment, tract premium / tax rate rows the valuation read; null outside the tracts. */
  tract: Json;
  /** Assumptions: caller overrides and defaults in effect (prop_type, scope, owner_occupied, …). */
  assumptions: Json;
  /**
   * Normalized evidence: comps and rejections in kernel order, the time index used, flip-pair legs, the subject's own
   * earlier sale with the weight that moved the value (absent in valuations without one).
   */
  evidence: { comps: Json[]; rejected: Json[]; timeIndex: Json; flipPairs: Json[]; priorSale?: Json };
  /** Source provenance: snapshot id, comp source (fallback chain), data vintages. */
  provenance: Json;
  /** Asset slices: the calibration-table row, hedonic coefficients, area-premium row actually used. */
  assetSlices: Json;
  /** Model and registry versions (model_version, constants REGISTRY_VERSION, calibration/hedonic versions). */
  versions: { model: string; registry: string; [key: string]: string | null | undefined };
};

/** Prefix bound into every digest; bump it whenever the canonical form below changes. */
export const HASH_DOMAIN = 'avm-inputs-hash/v1';

/**
 * Canonical JSON: object keys sorted recursively by UTF-16 code unit order (Array.prototype.sort default);
 * `undefined` members dropped; arrays keep their order; strings NFC-normalized; numbers in ECMAScript's shortest
 * round-trip form (Number.prototype.toString, identical on every conforming engine), -0 written as 0.
 * Rejected with internal_error: NaN/±Infinity, undefined inside arrays, bigint, functions, symbols, and
 * non-plain objects (Date, Map, typed arrays…), so nothing is silently coerced.
 */
export function canonicalJson(value: unknown, path = '$'): string {
  // Fast path (no path strings, no intermediate arrays); on any refusal the checked walk below names the culprit.
  if (path === '$') {
    try {
      // Integer-like keys are refused by shapeOf (then the string walk below, which orders every key itself).
      return canonicalText(value);
    } catch (e) {
      if (e !== REFUSED) throw e;
    }
    try {
      return fastCanonical(value);
    } catch (e) {
      if (e !== REFUSED) throw e;
    }
  }
  return checkedCanonical(value, path);
}

/** Thrown by the fast walk when a value needs the checked walk's error (never escapes canonicalJson). */
const REFUSED = Symbol('canonical-refused');
const NON_ASCII = /[^\x00-\x7f]/;
const nfc = (s: string): string => (NON_ASCII.test(s) ? s.normalize('NFC') : s);

const INTEGER_LIKE = /^(0|[1-9][0-9]*)$/;

/**
 * The canonical text, written by this walk for objects and arrays and by JSON.stringify for primitives and for an
 * array of flat records of one shape (comps, rejections, flip pairs: most of a valuation's document), which
 * JSON.stringify writes in one native call with the shape's sorted keys as its property list (a property list fixes
 * the key order of every object it writes, integer-like keys included, and drops undefined members). REFUSED when the
 * value needs the checked walk. `hint`: the shape the object probably has (its previous sibling's).
 */
function canonicalText(value: unknown, hint: Shape | null = null): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw REFUSED;
      return JSON.stringify(value); // -0 as 0, numbers in shortest round-trip form, as canonicalJson
    case 'string':
      return JSON.stringify(nfc(value));
    case 'object':
      break;
    default:
      throw REFUSED;
  }
  if (Array.isArray(value)) {
    const records = recordsShape(value);
    if (records !== null) return JSON.stringify(value, records.sorted);
    let out = '[';
    let sibling: Shape | null = null;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) throw REFUSED;
      out += (i === 0 ? '' : ',') + canonicalText(value[i], sibling);
      sibling = lastShape;
    }
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  if (!isPlain(obj)) throw REFUSED;
  const shape = shapeOf(obj, hint);
  let out = '{';
  let first = true;
  for (let i = 0; i < shape.sorted.length; i++) {
    const v = obj[shape.sorted[i]];
    if (v === undefined) continue;
    out += (first ? '' : ',') + shape.quoted[i] + canonicalText(v);
    first = false;
  }
  lastShape = shape;
  return out + '}';
}

function isPlain(obj: object): boolean {
  const proto = Object.getPrototypeOf(obj);
  return proto === Object.prototype || proto === null;
}

/** A value JSON.stringify writes exactly as canonicalJson does (undefined: a dropped member). */
function isCanonicalScalar(v: unknown): boolean {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v);
    case 'string':
      return !NON_ASCII.test(v) || v.normalize('NFC') === v;
    case 'boolean':
    case 'undefined':
      return true;
    default:
      return v === null;
  }
}

/** The one key shape of a non-empty array of plain objects whose members are all canonical scalars, else null. */
function recordsShape(items: readonly unknown[]): Shape | null {
  let shape: Shape | null = null;
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item) || !isPlain(item)) return null;
    const s = shapeOf(item as Record<string, unknown>, shape);
    if (shape !== null && s !== shape) return null;
    shape = s;
    for (const k of s.raw) if (!isCanonicalScalar((item as Record<string, unknown>)[k])) return null;
  }
  return shape;
}

/**
 * Key lists seen lately with their sorted order. A valuation's document has a few dozen shapes (subject, tract, each
 * evidence record type, …) and the next valuation the same ones; a single last-shape memo missed on every switch
 * between nested shapes, and each miss cost an Object.keys array, a copy and an (allocating) sort.
 */
/** An object's keys in insertion order, sorted, and each sorted key as written before its value (`"key":`). */
type Shape = { raw: string[]; sorted: string[]; quoted: string[] };
const recentShapes: Shape[] = [];
/** The shape of the object canonicalText wrote last (the hint for its next sibling; checked, never trusted). */
let lastShape: Shape | null = null;
/** Shapes kept before the list starts over (a few times what one document holds; a scan stops at the first key). */
const RECENT_SHAPES_MAX = 64;

/** True when obj's enumerable keys are exactly `raw`, in order (for-in: no key array per object). */
function hasKeys(obj: object, raw: readonly string[]): boolean {
  let i = 0;
  for (const k in obj) if (raw[i++] !== k) return false;
  return i === raw.length;
}

function shapeOf(obj: Record<string, unknown>, hint: Shape | null): Shape {
  // A rejection list holds up to a thousand records of one shape: try the sibling's before scanning the list.
  if (hint !== null && hasKeys(obj, hint.raw)) return hint;
  for (let i = 0; i < recentShapes.length; i++) if (hasKeys(obj, recentShapes[i].raw)) return recentShapes[i];
  const raw = Object.keys(obj);
  for (const k of raw) if (NON_ASCII.test(k) || INTEGER_LIKE.test(k) || k === '__proto__') throw REFUSED;
  if (recentShapes.length >= RECENT_SHAPES_MAX) recentShapes.length = 0;
  const sorted = [...raw].sort();
  const shape = { raw, sorted, quoted: sorted.map((k) => `${JSON.stringify(k)}:`) };
  recentShapes.push(shape);
  return shape;
}

function fastCanonical(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw REFUSED;
      return JSON.stringify(value === 0 ? 0 : value);
    case 'string':
      return JSON.stringify(nfc(value));
    case 'object':
      break;
    default:
      throw REFUSED;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) throw REFUSED;
      out += (i === 0 ? '' : ',') + fastCanonical(value[i]);
    }
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  const proto = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null) throw REFUSED;
  const keys: string[] = [];
  for (const k of Object.keys(obj)) {
    if (obj[k] === undefined) continue;
    if (NON_ASCII.test(k)) throw REFUSED; // non-ASCII keys (NFC collisions): the checked walk
    keys.push(k);
  }
  keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += (i === 0 ? '' : ',') + JSON.stringify(keys[i]) + ':' + fastCanonical(obj[keys[i]]);
  return out + '}';
}

function checkedCanonical(value: unknown, path: string): string {
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
    return checkedCanonical(item, `${path}[${i}]`);
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
  return `{${keys.map(([norm, raw]) => `${JSON.stringify(norm)}:${checkedCanonical(obj[raw], `${path}.${norm}`)}`).join(',')}}`;
}

function hashError(path: string, what: string): AppError {
  return new AppError('internal_error', `inputs hash: ${what} at ${path}`);
}

/** SHA-256 hex of HASH_DOMAIN + '\n' + canonicalJson(parts). Stable across runs, processes and machines. */
export function inputsHash(parts: InputsHashParts): string {
  const canonical = canonicalJson({
    subject: parts.subject,
    tract: parts.tract,
    assumptions: parts.assumptions,
    evidence: parts.evidence,
    provenance: parts.provenance,
    asset_slices: parts.assetSlices,
    versions: parts.versions,
  });
  // Two updates hash the same bytes as one of the concatenation, without copying the canonical text once more.
  return createHash('sha256').update(`${HASH_DOMAIN}\n`, 'utf8').update(canonical, 'utf8').digest('hex');
}
