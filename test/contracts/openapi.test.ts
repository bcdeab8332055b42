// GET /api/openapi.json: a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator), covering
// every REST operation with the one error body, and matching its snapshot.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contracts/operations.js';
import { recordedExample } from '../../src/app/openapi-examples.js';
import { buildOpenApi } from '../../src/contracts/openapi.js';
import { SCOPE_TEXT } from '../../src/contracts/auth.js';
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

  it('offers OAuth sign-in beside the bearer key: the served authorize and token endpoints, scopes read and underwrite', async () => {
    const schemes = (doc.components as { securitySchemes: Record<string, Record<string, unknown>> }).securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(['bearerKey', 'oauth2', 'operatorSecret']);
    const meta = (await (await fetch(`${service.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
    const flow = (schemes.oauth2 as { flows: { authorizationCode: Record<string, unknown> } }).flows.authorizationCode;
    // relative to the server ('/'): the same endpoints the authorization server metadata announces
    expect(new URL(flow.authorizationUrl as string, service.url).href).toBe(meta.authorization_endpoint);
    expect(new URL(flow.tokenUrl as string, service.url).href).toBe(meta.token_endpoint);
    expect(flow.scopes).toEqual({ read: SCOPE_TEXT.read, underwrite: SCOPE_TEXT.underwrite });

    const paths = doc.paths as Record<string, Record<string, { 'x-scope': string; security: Array<Record<string, string[]>> }>>;
    const oauthOf = new Map<string, string[] | null>();
    for (const ms of Object.values(paths)) for (const op of Object.values(ms)) oauthOf.set(op['x-scope'], op.security.find((r) => 'oauth2' in r)?.oauth2 ?? null);
    // (no REST operation needs underwrite: the underwriting tools are on /mcp)
    expect(Object.fromEntries(oauthOf)).toEqual({ read: ['read'], private: [], 'write-state': null, operator: null });
  });

  it('describes every REST operation of OPERATIONS, and nothing else', () => {
    const paths = doc.paths as Record<string, Record<string, { operationId: string }>>;
    const listed = Object.entries(paths).flatMap(([p, ms]) => Object.entries(ms).map(([m, o]) => `${m.toUpperCase()} ${p} ${o.operationId}`));
    const expected = OPERATIONS.filter((o) => o.rest).map((o) => `${o.rest!.method} ${o.rest!.path} ${o.id}`);
    expect(listed.sort()).toEqual(expected.sort());
  });

  it('documents only the error statuses each operation can answer, with the one error body', () => {
    type Op = { tags: string[]; description: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
    const paths = doc.paths as Record<string, Record<string, Op>>;
    const statuses = (path: string, method = 'get') => Object.keys(paths[path][method].responses).sort();
    // An open read: strict query (400), a bad key (401), slow request, rate limit, header size, drain; no 403/404/405/501.
    expect(statuses('/api/listings/chicago')).toEqual(['200', '400', '401', '408', '429', '431', '503']);
    // A property named by id or address can be unknown; valuing needs no scope.
    expect(statuses('/api/property')).toEqual(['200', '400', '401', '404', '408', '429', '431', '503']);
    // A body and a scope: 403 forbidden_scope, 413, 415.
    expect(statuses('/api/me/profiles', 'post')).toEqual(['201', '400', '401', '403', '408', '413', '415', '429', '431', '503']);
    // The event stream sits behind the Host/Origin guard.
    expect(statuses('/api/events')).toEqual(['200', '400', '401', '403', '408', '429', '431', '503']);
    const all = Object.values(paths).flatMap((ms) => Object.values(ms));
    for (const op of all) {
      expect(Object.keys(op.responses)).not.toContain('501');
      expect(Object.keys(op.responses)).not.toContain('405');
      expect(op.tags).toHaveLength(1);
      expect(op.description.length).toBeGreaterThan(20);
      for (const [s, r] of Object.entries(op.responses)) if (s >= '400' && r.content?.['application/json'] && op !== paths['/api/health'].get) expect(r.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
  });

  it('has servers, tags for every operation, a description on every parameter and real examples', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const tagNames = (doc.tags as Array<{ name: string }>).map((t) => t.name);
    type P = { name: string; description?: string };
    const ops = Object.values(doc.paths as Record<string, Record<string, { tags: string[]; parameters?: P[] }>>).flatMap((ms) => Object.values(ms));
    for (const op of ops) expect(tagNames).toContain(op.tags[0]);
    expect(ops.flatMap((o) => (o.parameters ?? []).filter((p) => !p.description).map((p) => p.name))).toEqual([]);
    const listings = (doc.paths as Record<string, Record<string, { responses: Record<string, { content: Record<string, { example?: { listings: unknown[] } }> }> }>>)['/api/listings/chicago'].get;
    expect(listings.responses['200'].content['application/json'].example?.listings.length).toBeGreaterThan(0);
  });

  it('is the generated document, and matches the snapshot', async () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApi(recordedExample))));
    await expect(JSON.stringify(doc, null, 2)).toMatchFileSnapshot('__snapshots__/openapi.json');
  });
});
