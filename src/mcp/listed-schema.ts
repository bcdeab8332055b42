// The input schema handed to the SDK: zod's own Standard Schema (so tools/list shows exactly the JSON Schema zod
// emits, descriptions included) with a validator that accepts everything. The tool callback validates with the
// operation's zod schema itself (server.ts): the SDK's own check would answer a bad input with plain text
// ("Input validation error: ...") instead of the taxonomy's validation_failed in the one error body.
import type { z } from 'zod';

type Standard = { '~standard': Record<string, unknown> };

export function listedInputSchema(schema: z.ZodType): Standard {
  const std = (schema as unknown as Standard)['~standard'];
  return { '~standard': { ...std, validate: (value: unknown) => ({ value }) } };
}
