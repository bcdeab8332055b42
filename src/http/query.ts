// Query text → typed input, driven by the operation's own JSON Schema: a parameter typed number/integer accepts
// plain decimal text only (no '', whitespace, hex, Infinity), which becomes a number; anything else stays text and
// fails validation. Zod's own coercion would read '' as 0 and '0x10' as 16.
import type { Operation } from '../contracts/operations.js';
import { toJson } from '../mcp/manifest.js';

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d{1,3})?$/;
const numericKeys = new WeakMap<Operation, Set<string>>();

function numericParams(op: Operation): Set<string> {
  let keys = numericKeys.get(op);
  if (!keys) {
    const props = (toJson(op.input, 'input') as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
    keys = new Set(Object.entries(props).filter(([, s]) => s.type === 'number' || s.type === 'integer').map(([k]) => k));
    numericKeys.set(op, keys);
  }
  return keys;
}

export function queryInput(op: Operation, query: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const numeric = numericParams(op);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    out[k] = numeric.has(k) && typeof v === 'string' && DECIMAL_TEXT.test(v) ? Number(v) : v;
  }
  return out;
}
