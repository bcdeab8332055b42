// DNS-rebinding guard over real HTTP: only loopback authorities on our port (plus configured ones) and their origins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostGuard } from '../../../src/http/middleware/host-guard.js';
import { rawRequest, serve, type TestServer } from './support.js';

let server: TestServer;
let port = 0;
beforeAll(async () => {
  server = await serve((app) => {
    app.use(hostGuard({ port: () => port, allowedHosts: ['avm.example.org'], allowedOrigins: ['https://map.example.org'] }));
    app.use((ctx) => void (ctx.body = { ok: true }));
  });
  port = server.port;
});
afterAll(async () => server.close());

describe('hostGuard({ port, allowedHosts, allowedOrigins })', () => {
  it('allows the loopback hosts on the listening port and configured hosts', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, 'avm.example.org']) {
      expect((await rawRequest(port, { path: '/mcp', host })).status, host).toBe(200);
    }
  });

  it('answers 403 forbidden_host for a rebinding Host', async () => {
    for (const host of ['evil.example.com', `evil.example.com:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', `localhost.evil.com:${port}`, '']) {
      const res = await rawRequest(port, { path: '/mcp', host });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('forbidden_host');
    }
  });

  it('checks Origin when present: same-host and configured origins pass, others and "null" get 403', async () => {
    const ok = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, 'https://avm.example.org', 'https://map.example.org'];
    for (const origin of ok) expect((await rawRequest(port, { path: '/api/events', headers: [['Origin', origin]] })).status, origin).toBe(200);
    const bad = ['http://evil.example.com', 'null', `http://127.0.0.1:${port}.evil.com`, 'https://map.example.org.evil.com', `ftp://localhost:${port}`];
    for (const origin of bad) {
      const res = await rawRequest(port, { path: '/api/events', headers: [['Origin', origin]] });
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('forbidden_host');
    }
  });
});
