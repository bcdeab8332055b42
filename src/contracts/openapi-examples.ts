// Examples of the OpenAPI document: real response bodies the service answered over the synthetic corpus, written by
// scripts/openapi-examples.ts into data/openapi-examples.json (committed; never typed by hand). How they are cut to
// size is here; the file is read by app/openapi-examples.ts (contracts/ reads no files).

export const EXAMPLES_FILE = 'data/openapi-examples.json';
/** Arrays longer than this are cut to their first items; a document example shows the shape, not the whole list. */
export const EXAMPLE_ARRAY_ITEMS = 2;
const TEXT_MAX_CHARS = 400;
/**
 * A trimmed answer longer than this (the tool catalog, the valuation contract) is left without an example: those
 * operations serve generated documents whose whole point is their full text, one request away.
 */
export const EXAMPLE_MAX_BYTES = 16_000;

/** Cuts arrays and long strings (whole pages, embedded documents); every value left is as the service sent it. */
export function trimExample(v: unknown): unknown {
  if (Array.isArray(v)) return v.slice(0, EXAMPLE_ARRAY_ITEMS).map(trimExample);
  if (typeof v === 'string') return v.length > TEXT_MAX_CHARS ? `${v.slice(0, TEXT_MAX_CHARS)}…` : v;
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimExample(x)]));
}

/** A recorded answer of an operation id (or `error_body`) with the status it came with; null when none was recorded. */
export type ExampleSource = (id: string) => { status: number; body: unknown } | null;
