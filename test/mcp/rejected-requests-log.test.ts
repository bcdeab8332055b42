// A request the MCP SDK rejects as malformed (not JSON-RPC, an empty batch, a modern header without its envelope) is
// the client's fault: it gets its 4xx and is not logged as an error of ours (the fuzz bench counted 179 such error
// lines per 2,500 cases after the move to SDK v2, whose transport reports every rejection through onerror).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src/server.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { captureLogLines } from '../support/log-lines.js';
import { roomyLimiter } from './support.js';

const { sink, lines: levels } = captureLogLines();

let service: ServiceHandle;
beforeAll(async () => {
  service = await startService(testConfig(await smallCorpusDir(), { AVM_LOG_LEVEL: 'warn' }), { installSignalHandlers: false, limiter: roomyLimiter(), logDestination: sink });
});
afterAll(async () => {
  await service?.close();
});

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });

describe('MCP requests the SDK rejects', () => {
  it('answer 4xx and log a warning, never an error line', async () => {
    const answers = await Promise.all([
      post('{"hello":"world"}'),
      post('[]'),
      post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { 'mcp-protocol-version': '2026-07-28' }),
    ]);
    for (const a of answers) expect(a.status).toBeGreaterThanOrEqual(400), expect(a.status).toBeLessThan(500);
    const errors = levels.filter((l) => l.level >= 50);
    expect(errors).toEqual([]);
    expect(levels.filter((l) => l.level === 40 && l.msg === 'mcp request rejected').length).toBeGreaterThanOrEqual(1);
  });
});
