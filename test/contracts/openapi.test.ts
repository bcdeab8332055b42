// GET /api/openapi.json: a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator), covering
// every REST operation with the one error body, and matching its snapshot.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contracts/operations.js';
import { buildOpenApi } from '../../src/contracts/openapi.js';
import type { ServiceHandle } from '../../src/server.js';
import { startDoors } from '../mcp/support.js';

let service: ServiceHandle;
let doc: Record<string, unknown>;

beforeAll(async () => {
  service = await startDoors();
  doc = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as Record<string, unknown>;
});
afterAll(async () => {
  await service?.close();
});

describe('GET /api/openapi.json', () => {
  it('is valid OpenAPI 3.1', async () => {
    const res = await new Validator().validate(structuredClone(doc) as never);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes every REST operation of OPERATIONS, and nothing else', () => {
    const paths = doc.paths as Record<string, Record<string, { operationId: string }>>;
    const listed = Object.entries(paths).flatMap(([p, ms]) => Object.entries(ms).map(([m, o]) => `${m.toUpperCase()} ${p} ${o.operationId}`));
    const expected = OPERATIONS.filter((o) => o.rest).map((o) => `${o.rest!.method} ${o.rest!.path} ${o.id}`);
    expect(listed.sort()).toEqual(expected.sort());
  });

  it('answers 400/401/403/404/429/503 with the one error body', () => {
    const op = (doc.paths as Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>>)['/api/listings/chicago'].get;
    for (const s of ['400', '401', '403', '404', '429', '503']) expect(op.responses[s].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
  });

  it('is the generated document, and matches the snapshot', async () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
    await expect(JSON.stringify(doc, null, 2)).toMatchFileSnapshot('__snapshots__/openapi.json');
  });
});
