// POST/GET/DELETE /mcp at the HTTP level: sessions (unknown id 404, no id 400), DELETE ends a session, a rejected
// key is refused with 401 before the transport, and Host/Origin are checked against the allowlist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { startDoors } from './support.js';

let service: ServiceHandle;
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

beforeAll(async () => {
  service = await startDoors();
});
afterAll(async () => {
  await service?.close();
});

const post = (body: string, extra: Record<string, string> = {}) => fetch(`${service.url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body });

describe('/mcp sessions', () => {
  it('initialize opens a session whose id then serves tools/list; DELETE ends it (then 404)', async () => {
    const init = await post(initialize);
    expect(init.status).toBe(200);
    const sid = init.headers.get('mcp-session-id')!;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    const s = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
    const tools = (await (await post(list, s)).json()) as { result: { tools: unknown[] } };
    expect(tools.result.tools.length).toBe(16);
    expect((await fetch(`${service.url}/mcp`, { method: 'DELETE', headers: s })).status).toBe(200);
    expect((await post(list, s)).status).toBe(404);
  });

  it('answers 400 without a session id unless the message is initialize, and 404 for an unknown id', async () => {
    expect((await post(list)).status).toBe(400);
    expect((await post(list, { 'mcp-session-id': 'no-such-session' })).status).toBe(404);
  });

  it('refuses a malformed key with 401 and a foreign Origin with 403 before any session exists', async () => {
    const bad = await post(initialize, { authorization: 'Bearer nope' });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    const evil = await post(initialize, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { code: string } }).error.code).toBe('forbidden_host');
  });
});
