// Worker-pool backpressure at the REST door: a full pool queue (AppError pool_queue_full from workers/pool.ts) is
// answered 503 with Retry-After and the one error body, not queued without bound.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import type { ServiceContext } from '../../src/app/context.js';
import { createLogger } from '../../src/log.js';
import { openStore, type Store } from '../../src/store/store.js';
import { poolError } from '../../src/workers/pool.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { roomyLimiter } from '../mcp/support.js';

let server: Server;
let store: Store;
let url: string;

beforeAll(async () => {
  const config = testConfig(await smallCorpusDir());
  store = openStore(config.dataDir);
  const queueFull = async (): Promise<never> => {
    throw poolError(new Error('Task queue is at limit'), config.taskTimeoutMs);
  };
  const svc: ServiceContext = { config, store, log: createLogger('silent'), now: () => new Date(), limiter: roomyLimiter(), engine: { answer: queueFull, value: queueFull, stamp: () => { throw new Error('unused'); }, close: async () => {} } };
  const app = createApp(svc);
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  svc.listenPort = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${svc.listenPort}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await store?.close();
});

describe('pool queue full', () => {
  it('GET /api/property answers 503 pool_queue_full with Retry-After', async () => {
    const res = await fetch(`${url}/api/property?lat=41.88&lon=-87.7&units=2`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = (await res.json()) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe('pool_queue_full');
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
  });
});
