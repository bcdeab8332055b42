// Defect 9: under the v1 SDK a JSON-RPC id reused on one MCP session left the first request unanswered forever. On
// the legacy lane now: two requests reusing an id are both answered, and a batch that reuses an id is refused whole
// (400 validation_failed) instead of losing one answer. Every request here is bounded by a timeout: nothing may hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, mintKey, startDoors } from './support.js';

const ANSWER_TIMEOUT_MS = 10_000;
let service: ServiceHandle;
let legacyHeaders: Record<string, string>;

beforeAll(async () => {
  service = await startDoors();
  legacyHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer((await mintKey(service, ['read'])).token) };
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ids', version: '0' } } });
  const sessionId = init.headers.get('mcp-session-id'); // a session id if the server keeps sessions: stay on it
  if (sessionId) legacyHeaders['mcp-session-id'] = sessionId;
  legacyHeaders['mcp-protocol-version'] = '2025-11-25';
  await init.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
});
afterAll(async () => {
  await service?.close();
});

function post(body: unknown): Promise<Response> {
  return fetch(`${service.url}/mcp`, { method: 'POST', headers: legacyHeaders, body: JSON.stringify(body), signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
}

/** The JSON-RPC messages of an answer, sent as JSON or as server-sent events. */
async function messagesOf(res: Response): Promise<Array<{ id?: unknown; result?: unknown; error?: unknown }>> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return [JSON.parse(text)].flat();
  return text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)));
}

const tractCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'market_pulse', arguments: {} } });

describe('POST /mcp with a reused JSON-RPC id', () => {
  it('answers both of two concurrent requests that carry the same id', async () => {
    const [first, second] = await Promise.all([post(tractCall(7)), post({ jsonrpc: '2.0', id: 7, method: 'tools/list' })]);
    const [a, b] = [await messagesOf(first), await messagesOf(second)];
    expect([a.length, b.length]).toEqual([1, 1]);
    expect(a[0]).toMatchObject({ id: 7, result: { structuredContent: { metro: 'chicago' } } });
    expect(b[0]).toMatchObject({ id: 7, result: { tools: expect.any(Array) } });
  });

  it('refuses a batch that reuses an id with 400 validation_failed, within the timeout', async () => {
    const res = await post([tractCall(5), { jsonrpc: '2.0', id: 5, method: 'ping' }]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/id 5/) });
  });

  it('still answers every request of a batch whose ids are distinct', async () => {
    const ids = (await messagesOf(await post([tractCall(1), { jsonrpc: '2.0', id: 2, method: 'ping' }]))).map((m) => m.id);
    expect(ids.sort()).toEqual([1, 2]);
  });
});
