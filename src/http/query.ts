// Query text → typed input, driven by the operation's own JSON Schema: a parameter typed number/integer accepts
// plain decimal text only (no '', whitespace, hex, Infinity), which becomes a number; one typed boolean accepts
// exactly `true` or `false`. Anything else stays text and fails validation. Zod's own coercion would read '' as 0,
// '0x10' as 16 and 'no' as true.
import { toJson } from '../contracts/manifest.js';
import type { Operation } from '../contracts/operations.js';

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d{1,3})?$/;
const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = { true: true, false: false };
type ParamKinds = { numeric: Set<string>; boolean: Set<string> };
const kindsByOp = new WeakMap<Operation, ParamKinds>();

function paramKinds(op: Operation): ParamKinds {
  let kinds = kindsByOp.get(op);
  if (!kinds) {
    const props = Object.entries((toJson(op.input, 'input') as { properties?: Record<string, { type?: unknown }> }).properties ?? {});
    kinds = {
      numeric: new Set(props.filter(([, s]) => s.type === 'number' || s.type === 'integer').map(([k]) => k)),
      boolean: new Set(props.filter(([, s]) => s.type === 'boolean').map(([k]) => k)),
    };
    kindsByOp.set(op, kinds);
  }
  return kinds;
}

export function queryInput(op: Operation, query: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const { numeric, boolean } = paramKinds(op);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (typeof v === 'string' && numeric.has(k) && DECIMAL_TEXT.test(v)) out[k] = Number(v);
    else if (typeof v === 'string' && boolean.has(k) && Object.hasOwn(BOOLEAN_TEXT, v)) out[k] = BOOLEAN_TEXT[v];
    else out[k] = v;
  }
  return out;
}
