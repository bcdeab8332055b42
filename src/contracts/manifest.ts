// The live tool catalog (GET /mcp/v2/manifest, GET /api/mcp-tools), generated from OPERATIONS: v2 names first,
// then the deprecated aliases with `deprecated: true` and their `replacement`.
import { z } from 'zod';
import { toolEntries } from './operations.js';
import type { Manifest } from './tools.js';
import { toolDescription, toolTextOf } from './tool-text.js';

export function toJson(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}

export function buildManifest(): Manifest {
  return {
    version: 'v2',
    tools: toolEntries().map((t) => ({
      name: t.name,
      title: toolTextOf(t.op.id).title,
      description: toolDescription(t.op.id, t.op.summary, t.replacement),
      scope: t.op.scope,
      deprecated: t.deprecated,
      ...(t.replacement ? { replacement: t.replacement } : {}),
      inputSchema: toJson(t.op.input, 'input'),
      outputSchema: toJson(t.op.output, 'output'),
    })),
  };
}
