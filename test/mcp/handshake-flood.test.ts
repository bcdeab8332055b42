// Defect 6 (session flood): MCP handshakes were free and 2,000 anonymous `initialize` calls evicted a keyed client's
// live session from a 256-session LRU. Now the tool door holds no session (both eras are served statelessly) and each
// handshake draws on its caller's rate limit like a tool call.
import { afterEach, describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/auth/limiter.js';
import { AUTH_LIMITS } from '../../src/registry/groups/auth.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { bearer, mcpClient, mintKey, startDoors } from './support.js';

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '0' } } });

let service: ServiceHandle | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const postInitialize = (id: number, extra: Record<string, string> = {}) => fetch(`${service!.url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body: initialize(id) });

describe('POST /mcp initialize, many times', () => {
  it('a keyed client keeps listing and calling tools after 2,000 anonymous initializes', async () => {
    service = await startDoors(); // roomy anonymous quota: the flood is admitted, and still evicts nothing
    const keyed = await mcpClient(service, bearer((await mintKey(service, ['read'])).token));
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 2_000; batch += 50) {
      const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => postInitialize(batch + i)));
      for (const r of replies) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        await r.body?.cancel();
      }
    }
    expect(statuses.get(200)).toBe(2_000);
    expect((await keyed.listTools()).tools.length).toBeGreaterThan(0);
    const pulse = await keyed.callTool({ name: 'market_pulse', arguments: {} });
    expect(pulse.isError ?? false).toBe(false);
    await keyed.close();
  }, 120_000);

  it('an anonymous caller flooding initialize gets 429 rate_limited with Retry-After past the anonymous quota', async () => {
    service = await startDoors({ limiter: createLimiter() });
    const quota = AUTH_LIMITS.v.anon_calls_per_window;
    for (let i = 0; i < quota; i++) {
      const ok = await postInitialize(i);
      expect(ok.status, `initialize ${i}`).toBe(200);
      await ok.body?.cancel();
    }
    const refused = await postInitialize(quota);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });

  it('a keyed caller flooding initialize is limited by its own rpm, and other callers are not', async () => {
    service = await startDoors({ limiter: createLimiter() });
    const key = await mintKey(service, ['read'], 5);
    const other = await mcpClient(service, bearer((await mintKey(service, ['read'])).token));
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await postInitialize(i, bearer(key.token));
      codes.push(r.status);
      await r.body?.cancel();
    }
    expect(codes.filter((c) => c === 429).length).toBeGreaterThan(0);
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect((await other.listTools()).tools.length).toBeGreaterThan(0);
    await other.close();
  });
});

describe('AVM_ANON_RATE_LIMIT', () => {
  it('sets the anonymous quota that initialize draws on (CI runs the anonymous conformance client under a raised one)', async () => {
    service = await startService(testConfig(await smallCorpusDir(), { AVM_ANON_RATE_LIMIT: '40' }), { installSignalHandlers: false });
    for (let i = 0; i < 40; i++) {
      const ok = await postInitialize(i);
      expect(ok.status, `initialize ${i}`).toBe(200);
      await ok.body?.cancel();
    }
    expect((await postInitialize(40)).status).toBe(429);
  });
});
