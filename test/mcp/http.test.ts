// POST/GET/DELETE /mcp at the HTTP level: both eras are served without a session (a 2025-era initialize gets no
// Mcp-Session-Id, a 2026-07-28 request carries its version in `_meta`), GET and DELETE (2025 session operations) are
// 405, a rejected key is refused with 401 before the SDK on every request, and Host/Origin are checked against the
// allowlist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { MODERN_REVISION, startDoors } from './support.js';

let service: ServiceHandle;
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
const modernMeta = { 'io.modelcontextprotocol/protocolVersion': MODERN_REVISION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '0' } };

beforeAll(async () => {
  service = await startDoors();
});
afterAll(async () => {
  await service?.close();
});

const post = (body: string, extra: Record<string, string> = {}) => fetch(`${service.url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body });

/** The one JSON-RPC message of an answer sent as JSON or as a single server-sent event. */
async function messageOf(res: Response): Promise<Record<string, any>> {
  const text = await res.text();
  const data = (res.headers.get('content-type') ?? '').startsWith('text/event-stream') ? text.split('\n').find((l) => l.startsWith('data:'))!.slice(5) : text;
  return JSON.parse(data) as Record<string, any>;
}

describe('/mcp without sessions', () => {
  it('answers a 2025-era initialize without a session id, and tools/list without one', async () => {
    const init = await post(initialize);
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect((await messageOf(init)).result.protocolVersion).toBe('2025-11-25');
    const tools = await messageOf(await post(list, { 'mcp-protocol-version': '2025-11-25' }));
    expect(tools.result.tools.length).toBe(16);
  });

  it('answers a 2026-07-28 server/discover and tools/list with no handshake before them', async () => {
    const v = { 'mcp-protocol-version': MODERN_REVISION };
    const discover = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta } }), { ...v, 'mcp-method': 'server/discover' });
    expect(discover.status).toBe(200);
    expect((await messageOf(discover)).result.supportedVersions).toContain(MODERN_REVISION);
    const tools = await messageOf(await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: modernMeta } }), { ...v, 'mcp-method': 'tools/list' }));
    expect(tools.result.tools.length).toBe(16);
  });

  it('answers GET and DELETE (2025 session operations) with 405', async () => {
    for (const method of ['GET', 'DELETE']) expect((await fetch(`${service.url}/mcp`, { method, headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } })).status).toBe(405);
  });

  it('refuses a malformed key with 401 and a foreign Origin with 403 on every request, whatever the era', async () => {
    const modernList = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: modernMeta } });
    for (const body of [initialize, list, modernList]) {
      const bad = await post(body, { authorization: 'Bearer nope' });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
      const evil = await post(body, { origin: 'https://evil.example' });
      expect(evil.status).toBe(403);
      expect(((await evil.json()) as { error: { code: string } }).error.code).toBe('forbidden_host');
    }
  });
});
