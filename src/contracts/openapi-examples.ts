// Examples of the OpenAPI document: real response bodies the service answered over the synthetic corpus, written by
// scripts/openapi-examples.ts into data/openapi-examples.json (committed; never typed by hand). How they are cut to
// size is here; the file is read by app/openapi-examples.ts (contracts/ reads no files).
import { RING_MIN_POSITIONS } from './geo.js';

export const EXAMPLES_FILE = 'data/openapi-examples.json';
/** Arrays longer than this are cut to their first items; a document example shows the shape, not the whole list. */
export const EXAMPLE_ARRAY_ITEMS = 2;
const TEXT_MAX_CHARS = 400;
/**
 * A trimmed answer longer than this (the tool catalog, the valuation contract) is left without an example: those
 * operations serve generated documents whose whole point is their full text, one request away.
 */
export const EXAMPLE_MAX_BYTES = 16_000;

const isNumber = (x: unknown): x is number => typeof x === 'number';
const isPosition = (x: unknown): x is number[] => Array.isArray(x) && x.length > 0 && x.every(isNumber);
/** A GeoJSON linear ring: at least four positions, the last equal to the first. */
const isRing = (v: unknown[]): v is number[][] =>
  v.length >= RING_MIN_POSITIONS && v.every(isPosition) && JSON.stringify(v[0]) === JSON.stringify(v.at(-1));

/**
 * Cuts arrays and long strings (whole pages, embedded documents); every value left is as the service sent it, and the
 * cut answer still parses with the operation's output schema. Two kinds of array are not plain lists, so a plain cut
 * would break them: a list of numbers is a tuple (a position, a bbox, a weight vector) whose length is its meaning, so
 * it is kept whole; a polygon ring keeps its first positions and its closing one, the fewest a valid ring has.
 */
export function trimExample(v: unknown): unknown {
  if (Array.isArray(v)) {
    if (v.every(isNumber)) return v;
    if (isRing(v)) return [...v.slice(0, RING_MIN_POSITIONS - 1), v.at(-1)];
    return v.slice(0, EXAMPLE_ARRAY_ITEMS).map(trimExample);
  }
  if (typeof v === 'string') return v.length > TEXT_MAX_CHARS ? `${v.slice(0, TEXT_MAX_CHARS)}…` : v;
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimExample(x)]));
}

/** A recorded answer of an operation id (or `error_body`) with the status it came with; null when none was recorded. */
export type ExampleSource = (id: string) => { status: number; body: unknown } | null;
