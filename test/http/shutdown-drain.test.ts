// close() drains a started service: valuations in flight finish 200, requests sent on kept-alive connections during
// the drain get 503 shutting_down with Connection: close, past the drain deadline the unfinished ones get that 503
// too, an open event stream ends cleanly; no request sees a reset. (Before the drain, close() reset them all.)
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { startService } from '../../src/server.js';
import { roomyLimiter } from '../mcp/support.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { captureLogLines } from '../support/log-lines.js';
import { getOutcome, idleSocketCount, keepAliveAgent, warmSockets, type Outcome } from '../support/http-client.js';

// Points spread over the test corpus so each request is its own valuation (no shared answer to wait on).
const underwriteUrl = (base: string, i: number): string => `${base}/api/underwrite?lat=${(41.8 + i * 0.01).toFixed(3)}&lon=${(-87.7 + i * 0.01).toFixed(3)}&price=300000&units=2`;

let service: ServiceHandle | null = null;
afterEach(async () => {
  await service?.close();
  service = null;
});

async function start(opts: { drainTimeoutMs?: number; logDestination?: Writable } = {}): Promise<ServiceHandle> {
  // One worker: the valuations queue behind each other, so they are still in flight when close() is called.
  service = await startService(testConfig(await smallCorpusDir(), { AVM_WORKERS: '1', AVM_LOG_LEVEL: 'error' }), { installSignalHandlers: false, limiter: roomyLimiter(), ...opts });
  return service;
}

const errorCodeOf = (o: Outcome): string | null => ('error' in o ? null : (JSON.parse(o.body) as { error?: { code?: string } }).error?.code ?? null);

describe('ServiceHandle.close() while requests are in flight', () => {
  it('finishes every in-flight /api/underwrite with 200 and answers requests on kept-alive connections 503 shutting_down, none reset', async () => {
    const svc = await start();
    const idle = keepAliveAgent();
    await warmSockets(svc.url, idle, 4);
    expect(idleSocketCount(idle)).toBe(4);
    const busy = keepAliveAgent();
    const settled: boolean[] = [];
    const inFlight = Array.from({ length: 6 }, (_, i) => getOutcome(underwriteUrl(svc.url, i), busy).finally(() => (settled[i] = true)));
    await new Promise((r) => setTimeout(r, 300)); // the requests reach the server; the first still waits for the pool to start
    expect(settled.filter(Boolean)).toHaveLength(0);

    const closing = svc.close();
    const duringDrain = await Promise.all(Array.from({ length: 4 }, () => getOutcome(`${svc.url}/api/health`, idle)));
    const finished = await Promise.all(inFlight);
    await closing;
    service = null;

    expect(finished.map((o) => ('error' in o ? o.error : o.status))).toEqual([200, 200, 200, 200, 200, 200]);
    expect(finished.every((o) => !('error' in o) && o.connection === 'close')).toBe(true);
    expect(duringDrain.map((o) => ('error' in o ? o.error : o.status))).toEqual([503, 503, 503, 503]);
    for (const o of duringDrain) {
      expect(errorCodeOf(o)).toBe('shutting_down');
      expect(!('error' in o) && o.connection).toBe('close');
    }
    idle.destroy();
    busy.destroy();
  });

  it('waits for the work of requests whose clients went away before closing the pool (no worker_crashed)', async () => {
    // Found by the load bench: autocannon ends with requests in flight and drops its sockets; the drain counted a
    // request done when its connection closed, so close() destroyed the pool under the still-running valuations.
    const { sink, lines } = captureLogLines();
    const svc = await start({ logDestination: sink });
    const agent = keepAliveAgent();
    const inFlight = Array.from({ length: 6 }, (_, i) => getOutcome(underwriteUrl(svc.url, i), agent));
    await new Promise((r) => setTimeout(r, 300)); // the requests reach the server and queue for the one worker
    agent.destroy(); // the clients leave before their answers
    expect((await Promise.all(inFlight)).every((o) => 'error' in o)).toBe(true);
    await svc.close();
    service = null;
    expect(lines.filter((l) => l.level >= 50 && l.code === 'worker_crashed')).toEqual([]);
  });

  it('answers 503 shutting_down to the requests still unfinished at the drain deadline, never a reset', async () => {
    const svc = await start({ drainTimeoutMs: 50 });
    const agent = keepAliveAgent();
    const inFlight = Array.from({ length: 4 }, (_, i) => getOutcome(underwriteUrl(svc.url, i), agent));
    await new Promise((r) => setTimeout(r, 300));
    await svc.close();
    service = null;
    const outcomes = await Promise.all(inFlight);
    expect(outcomes.map((o) => ('error' in o ? o.error : o.status))).toEqual([503, 503, 503, 503]);
    for (const o of outcomes) {
      expect(errorCodeOf(o)).toBe('shutting_down');
      expect(!('error' in o) && o.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
    agent.destroy();
  });

  it('answers 503 to connections the kernel completed but the service had not yet accepted, rather than resetting them', async () => {
    const svc = await start();
    // net.connect issues its connect() on the next tick: after this tick the handshakes sit in the listener's accept
    // backlog, and close() runs before the event loop could accept them.
    const replies = Array.from({ length: 5 }, () => {
      const socket = connect(svc.port, '127.0.0.1');
      socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${svc.port}\r\n\r\n`);
      return new Promise<string>((resolve) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (c: string) => (text += c));
        socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        socket.on('close', () => resolve(text.split('\r\n')[0]));
      });
    });
    await new Promise<void>((r) => process.nextTick(r));
    await svc.close();
    service = null;
    expect(await Promise.all(replies)).toEqual(Array(5).fill('HTTP/1.1 503 Service Unavailable'));
  });

  it('ends an open /api/events stream cleanly (the response ends, no reset)', async () => {
    const svc = await start();
    const ended = await new Promise<string>((resolve, reject) => {
      const req = request(`${svc.url}/api/events`, { headers: { Accept: 'text/event-stream' } }, (res) => {
        res.once('data', () => void svc.close().catch(reject));
        res.on('end', () => resolve('end'));
        res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        res.on('aborted', () => resolve('aborted'));
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.end();
    });
    service = null;
    expect(ended).toBe('end');
  });
});
