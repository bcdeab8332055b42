// Reproduces issue 13 defects 1 and 2: the router matched paths case-insensitively and with a trailing slash while
// the Host/Origin guard, the scope/operator check and input validation matched exactly, so `POST /MCP` from a foreign
// origin opened an anonymous MCP session, `GET /API/EVENTS` streamed, and `/api/underwrite/`, `/Api/property` and
// `/api/admin/analytics/` reached their handlers unvalidated (500, the last without the operator secret).
// Requests go over a raw socket: fetch would rewrite `/./`, `%2e` and other spellings before sending them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/http/errors.js';
import type { ServiceHandle } from '../../src/server.js';
import { startDoors } from '../mcp/support.js';
import { rawRequest, type RawResponse } from './middleware/support.js';

let service: ServiceHandle;
beforeAll(async () => {
  service = await startDoors();
});
afterAll(async () => {
  await service?.close();
});

const FOREIGN: Array<[string, string]> = [['Origin', 'http://evil.example']];
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rebind', version: '0' } } });
const UNDERWRITE_QUERY = '?lat=41.8&lon=-87.7&price=300000&units=2';

function postInitialize(path: string, host: string): Promise<RawResponse> {
  const headers: Array<[string, string]> = [...FOREIGN, ['Content-Type', 'application/json'], ['Accept', 'application/json, text/event-stream'], ['Content-Length', String(Buffer.byteLength(INITIALIZE))]];
  return rawRequest(service.port, { method: 'POST', path, host, headers, body: INITIALIZE });
}

function expectCode(res: RawResponse, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(ErrorBodySchema.parse(JSON.parse(res.body)).error.code).toBe(code);
}

describe('a path spelled differently from its route is refused before any guard (404 not_found)', () => {
  it('POST /MCP, /Mcp/ and //mcp from a foreign Host and Origin open no MCP session', async () => {
    for (const path of ['/MCP', '/Mcp/', '/mcp/', '//mcp', '/%6Dcp', '/x/../mcp']) {
      const res = await postInitialize(path, 'evil.example');
      expect(res.headers['mcp-session-id'], path).toBeUndefined();
      expectCode(res, 404, 'not_found');
    }
    expectCode(await postInitialize('/mcp', 'evil.example'), 403, 'forbidden_host');
  });

  it('GET /API/EVENTS from a foreign Host and Origin streams nothing', async () => {
    for (const path of ['/API/EVENTS', '/api/events/', '/api/Events?after=0']) {
      const res = await rawRequest(service.port, { path, host: 'evil.example', headers: FOREIGN });
      expect(res.headers['content-type'] ?? '', path).not.toMatch(/event-stream/);
      expectCode(res, 404, 'not_found');
    }
  });

  it('/api/underwrite/, /Api/property and /api/admin/analytics/ never reach their handlers unvalidated', async () => {
    for (const path of [`/api/underwrite/${UNDERWRITE_QUERY}`, '/Api/property?address=x', '/api/admin/analytics/?days=7', '/API/ADMIN/ANALYTICS?days=7']) {
      expectCode(await rawRequest(service.port, { path }), 404, 'not_found');
    }
  });

  it('double slashes, percent-encoded letters and slashes, and dot segments are refused too', async () => {
    const spellings = ['//api/underwrite', '/api//underwrite', '/api/%75nderwrite', '/api%2Funderwrite', '/api%2funderwrite', '/api/./underwrite', '/api/%2e/underwrite', '/api/x/../underwrite', '/api/underwrite/.', '/api/underwrite%2F', '/api/%zz'];
    for (const path of spellings) {
      const res = await rawRequest(service.port, { path: `${path}${UNDERWRITE_QUERY}` });
      expect(res.status, path).toBe(404);
      expect(ErrorBodySchema.parse(JSON.parse(res.body)).error.code, path).toBe('not_found');
    }
  });

  it('the refusal names the one spelling that is served', async () => {
    const res = await rawRequest(service.port, { path: `/API/Underwrite/${UNDERWRITE_QUERY}` });
    expect(JSON.parse(res.body).error.details).toEqual({ canonical_path: '/api/underwrite' });
  });

  it('the canonical spellings still answer: operator secret checked, input validated, guard applied', async () => {
    expectCode(await rawRequest(service.port, { path: '/api/admin/analytics?days=7' }), 401, 'unauthorized');
    expectCode(await rawRequest(service.port, { path: '/api/property' }), 400, 'validation_failed');
    expectCode(await rawRequest(service.port, { path: '/api/events', host: 'evil.example', headers: FOREIGN }), 403, 'forbidden_host');
    expect((await rawRequest(service.port, { path: `/api/underwrite${UNDERWRITE_QUERY}` })).status).toBe(200);
  });
});
