// Issue 16 item 1, first part: Protected Resource Metadata (RFC 9728) for the REST API and for /mcp, and the Bearer
// challenge on every refusal (401 with resource_metadata, 403 insufficient_scope), on REST and on /mcp, where a
// missing scope used to come back as a tool result no OAuth client could act on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, MODERN_REVISION, mintKey, startDoors } from '../mcp/support.js';

let service: ServiceHandle;
let readKey: string;
beforeAll(async () => {
  service = await startDoors();
  readKey = (await mintKey(service, ['read'])).token;
});
afterAll(async () => {
  await service?.close();
});

const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const callDeep = (headers: Record<string, string>) =>
  fetch(`${service.url}/mcp`, {
    method: 'POST',
    headers: { ...mcpHeaders, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'deep_underwrite_asset', arguments: { lat: 41.88, lon: -87.7 } } }),
  });

describe('Protected Resource Metadata', () => {
  it('describes the REST API at the root well-known path and /mcp at the path-suffixed one', async () => {
    const root = await fetch(`${service.url}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(200);
    expect(await root.json()).toMatchObject({ resource: service.url, authorization_servers: [service.url], scopes_supported: ['read', 'underwrite'], bearer_methods_supported: ['header'] });
    const mcp = await fetch(`${service.url}/.well-known/oauth-protected-resource/mcp`);
    expect(mcp.status).toBe(200);
    expect(await mcp.json()).toMatchObject({ resource: `${service.url}/mcp`, authorization_servers: [service.url] });
  });

  it('serves each document in one spelling only (trailing slash and case variants are 404 not_found)', async () => {
    for (const p of ['/.well-known/oauth-protected-resource/', '/.well-known/OAuth-Protected-Resource', '/.well-known/oauth-protected-resource/MCP']) {
      const res = await fetch(`${service.url}${p}`);
      expect(res.status, p).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});

describe('Bearer challenge on /mcp', () => {
  it('answers an anonymous underwrite tool call with HTTP 401 and the /mcp resource metadata URL', async () => {
    const res = await callDeep({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="avm", resource_metadata="${service.url}/.well-known/oauth-protected-resource/mcp", scope="read underwrite"`);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('answers a read-only key with HTTP 403 insufficient_scope naming the scope needed', async () => {
    const res = await callDeep(bearer(readKey));
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="avm", resource_metadata="${service.url}/.well-known/oauth-protected-resource/mcp", error="insufficient_scope", scope="underwrite"`);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('forbidden_scope');
  });

  it('refuses a bad token with invalid_token, and lets anonymous read tools through (2026-07-28 lane too)', async () => {
    const bad = await callDeep({ authorization: 'Bearer nope' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN_REVISION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' } };
    const read = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, 'mcp-protocol-version': MODERN_REVISION, 'mcp-method': 'tools/call', 'mcp-name': 'market_pulse' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'market_pulse', arguments: {}, _meta: meta } }),
    });
    expect(read.status).toBe(200);
  });
});

describe('Bearer challenge on REST', () => {
  it('answers a private operation without a key with 401 and the REST resource metadata URL', async () => {
    const res = await fetch(`${service.url}/api/state`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="avm", resource_metadata="${service.url}/.well-known/oauth-protected-resource", scope="read underwrite"`);
  });

  it('answers a key without the operation scope with 403 insufficient_scope', async () => {
    const res = await fetch(`${service.url}/api/me/profiles`, { method: 'POST', headers: { ...bearer(readKey), 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="write-state"');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('forbidden_scope');
  });
});
