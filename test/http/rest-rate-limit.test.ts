// The shared limiter on both doors, with a faked clock: the 31st anonymous call in a minute gets 429 with
// Retry-After and RateLimit headers (REST calls, MCP initialize and tools/call alike); a forged X-Forwarded-For does
// not reset it.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLimiter } from '../../src/auth/limiter.js';
import type { ServiceHandle } from '../../src/server.js';
import { startDoors } from '../mcp/support.js';

let service: ServiceHandle;

beforeAll(async () => {
  // Date.now is read at call time, so the faked clock of each test drives the limiter.
  service = await startDoors({ limiter: createLimiter({ now: () => Date.now() }) });
});
afterAll(async () => {
  await service?.close();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const toolCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'highlight_properties', arguments: { ids: ['a'] } } });

describe('anonymous rate limit (30 per minute per IP)', () => {
  it('REST: calls 1-30 pass, the 31st is 429 with Retry-After; a minute later calls pass again', async () => {
    vi.setSystemTime(new Date('2026-11-21T10:00:00Z'));
    for (let i = 1; i <= 30; i++) {
      const res = await fetch(`${service.url}/api/health`, { headers: { 'x-forwarded-for': `10.0.0.${i}` } });
      expect(res.status, `call ${i}`).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(30 - i));
    }
    const refused = await fetch(`${service.url}/api/health`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-limit')).toBe('30');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    vi.setSystemTime(new Date('2026-11-21T10:01:00.001Z'));
    expect((await fetch(`${service.url}/api/health`)).status).toBe(200);
  });

  it('MCP: initialize and each tools/call count; other protocol messages do not; the 31st metered message gets HTTP 429', async () => {
    vi.setSystemTime(new Date('2026-11-21T11:00:00Z'));
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } }),
    });
    expect(init.status).toBe(200);
    await init.text();
    const legacy = { ...headers, 'mcp-protocol-version': '2025-11-25' };
    await (await fetch(`${service.url}/mcp`, { method: 'POST', headers: legacy, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    // The legacy lane answers over server-sent events: the JSON-RPC message is the event's data line.
    const messageOf = async (res: Response) => JSON.parse((await res.text()).split('\n').find((l) => l.startsWith('data:'))!.slice(5)) as { result: { isError?: boolean } };
    for (let i = 1; i <= 29; i++) {
      const res = await fetch(`${service.url}/mcp`, { method: 'POST', headers: legacy, body: JSON.stringify(toolCall(i)) });
      expect(res.status, `call ${i}`).toBe(200);
      expect((await messageOf(res)).result.isError ?? false).toBe(false);
    }
    const refused = await fetch(`${service.url}/mcp`, { method: 'POST', headers: legacy, body: JSON.stringify(toolCall(30)) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    const list = await fetch(`${service.url}/mcp`, { method: 'POST', headers: legacy, body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }) });
    expect(list.status).toBe(200);
  });
});
