// The input schema handed to the SDK: zod's own Standard Schema (so tools/list shows the JSON Schema zod emits,
// descriptions included) with a validator that accepts everything. The tool callback validates with the operation's
// zod schema itself (server.ts): the SDK's own check would answer a bad input with plain text ("Input validation
// error: ...") instead of the taxonomy's validation_failed in the one error body.
import type { z } from 'zod';

type JsonSchemaFn = (opts: unknown) => unknown;
type Standard = { '~standard': Record<string, unknown> & { jsonSchema?: { input: JsonSchemaFn; output: JsonSchemaFn } } };

/**
 * zod writes a closed tuple (bbox) as `prefixItems` plus `items: false`; a bare boolean schema is legal JSON Schema
 * but some MCP clients cannot read it (the Inspector's --strict check calls it an error), so the listing spells the
 * same contract as `{ "not": {} }`.
 */
function portable(js: unknown): unknown {
  if (Array.isArray(js)) return js.map(portable);
  if (js === null || typeof js !== 'object') return js;
  return Object.fromEntries(Object.entries(js).map(([k, v]) => [k, k === 'items' && v === false ? { not: {} } : portable(v)]));
}

export function listedInputSchema(schema: z.ZodType): Standard {
  const std = (schema as unknown as Standard)['~standard'];
  const js = std.jsonSchema!;
  return {
    '~standard': {
      ...std,
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: (o: unknown) => portable(js.input(o)), output: (o: unknown) => portable(js.output(o)) },
    },
  };
}
