// Issue 16 item 3: the scope `alerts:write` the spec announces (Authentication 4) is listed where scopes are listed
// (the OpenAPI security scheme, the key-creation schema, the keys page) and accepted wherever a scope is given, as the
// same permission as `webhooks`; `webhooks` keeps guarding webhook channels. OAuth cannot grant it (only read and
// underwrite), so the OAuth metadata does not list it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_TEXT } from '../../src/contracts/auth.js';
import type { ServiceHandle } from '../../src/server.js';
import { mintKey, startDoors } from '../mcp/support.js';

type Json = Record<string, unknown>;
let service: ServiceHandle;
beforeAll(async () => {
  service = await startDoors();
});
afterAll(async () => {
  await service?.close();
});

const PROFILE = { name: 'hooked', strategy: 'brrrr', min_percentile: 70, max_price: 400000, min_confidence: 50, bbox: [-87.8, 41.8, -87.6, 41.95], criteria: {}, channels: { webhook: { url: 'https://127.0.0.1:9/hook', secret: 's'.repeat(32) } } };
const get = async (path: string): Promise<Json> => (await (await fetch(`${service.url}${path}`)).json()) as Json;
async function post(path: string, token: string, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('alerts:write', () => {
  it('is announced in the OpenAPI document: the bearer scheme lists every scope with what it allows, and key creation accepts it', async () => {
    const doc = await get('/api/openapi.json') as { components: { securitySchemes: { bearerKey: { description: string } } }; paths: Record<string, Json> };
    const scheme = doc.components.securitySchemes.bearerKey.description;
    for (const name of ['read', 'underwrite', 'write-state', 'webhooks', 'alerts:write']) expect(scheme).toContain(`${name}: ${SCOPE_TEXT[name as keyof typeof SCOPE_TEXT]}`);
    expect(JSON.stringify(doc.paths['/api/me/keys'])).toContain('"alerts:write"');
  });

  it('names the webhooks permission: a key created with it can add a webhook channel, a write-state key without it cannot', async () => {
    const owner = await mintKey(service, ['read', 'write-state', 'webhooks']);
    const created = await post('/api/me/keys', owner.token, { scopes: ['write-state', 'alerts:write'], label: 'alerts' });
    expect(created.status).toBe(201);
    expect((created.body.key as Json).scopes).toEqual(['write-state', 'webhooks']);
    expect((await post('/api/me/profiles', created.body.secret as string, PROFILE)).status).toBe(201);
    const writer = await post('/api/me/keys', owner.token, { scopes: ['write-state'] });
    const refused = await post('/api/me/profiles', writer.body.secret as string, PROFILE);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden_scope' });
  });

  it('is not offered by OAuth (the consent grants read and underwrite only), so the metadata does not list it', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      expect((await get(path)).scopes_supported, path).toEqual(['read', 'underwrite']);
    }
  });
});
