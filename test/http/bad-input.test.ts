// Reproduces issue 13 defect 7 on the real service: JSON nested 3,000 deep reached the store encoder through a tool's
// free-form payload (`Maximum call stack size exceeded`, 500 internal_error); a client closing mid-body was logged as
// an error and audited 500; the HTTP server kept Node's defaults (a partial body held for minutes, no connection cap);
// a tools/call with malformed params got a JSON-RPC internal error.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorBodySchema } from '../../src/http/errors.js';
import { DOORS } from '../../src/registry/groups/doors.js';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, mintKey, startDoors } from '../mcp/support.js';

let service: ServiceHandle;
let writer: { id: string; token: string };
beforeAll(async () => {
  service = await startDoors();
  writer = await mintKey(service, ['read', 'write-state']);
});
afterAll(async () => {
  await service?.close();
});

const nested = (depth: number, leaf = '1'): string => '['.repeat(depth) + leaf + ']'.repeat(depth);
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function mcpSession(token: string): Promise<Record<string, string>> {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bad-input', version: '0' } } };
  const res = await fetch(`${service.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...bearer(token) }, body: JSON.stringify(initialize) });
  const headers = { ...MCP_HEADERS, ...bearer(token), 'mcp-session-id': res.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
  await fetch(`${service.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return headers;
}

describe('JSON nested deeper than the doors accept', () => {
  it('a tools/call whose favorite payload nests 3,000 deep is 400 validation_failed, not an internal error', async () => {
    const headers = await mcpSession(writer.token);
    const body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"save_favorite_property","arguments":{"property_id":"p-deep","payload":{"x":${nested(3000)}}}}}`;
    const res = await fetch(`${service.url}/mcp`, { method: 'POST', headers, body });
    const text = await res.text();
    expect(text).not.toContain('internal_error');
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(JSON.parse(text)).error.code).toBe('validation_failed');
  });

  it('a REST body nesting one level beyond json_max_depth is 400 and names the limit; one at the limit is parsed', async () => {
    const max = DOORS.v.json_max_depth;
    const post = (json: string) => fetch(`${service.url}/api/me/profiles`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(writer.token) }, body: json });
    const over = await post(`{"name":${nested(max)}}`); // the outer object is level 1
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: { message: string } }).error.message).toContain(`${max} levels`);
    const at = await post(`{"name":${nested(max - 1)}}`);
    expect(at.status).toBe(400);
    expect(((await at.json()) as { error: { message: string } }).error.message).toMatch(/^invalid body: name/);
  });
});

// Found by the fuzz suite: the v1 SDK answers a tools/call whose params do not parse with JSON-RPC -32603 "internal
// error" carrying its zod issues, the MCP counterpart of a 500.
describe('a tools/call whose params are malformed', () => {
  it.each([
    ['arguments a string', { name: 'market_pulse', arguments: 'x' }],
    ['arguments an array', { name: 'market_pulse', arguments: [1] }],
    ['name a number', { name: 5, arguments: {} }],
    ['params an array', [1]],
  ])('%s: 400 validation_failed, not a JSON-RPC internal error', async (_label, params) => {
    const headers = await mcpSession(writer.token);
    const res = await fetch(`${service.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }) });
    const text = await res.text();
    expect(text).not.toContain('-32603');
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(JSON.parse(text)).error.code).toBe('validation_failed');
  });
});

describe('a client that closes the connection mid-body', () => {
  it('is audited 499 client_closed_request, not 500, and logs no error', async () => {
    const closer = await mintKey(service, ['read', 'write-state']);
    const logged = vi.spyOn(service.svc.log, 'error');
    const sock = connect(service.port, '127.0.0.1');
    await new Promise<void>((ok) => sock.once('connect', () => ok()));
    sock.write(`POST /api/me/profiles HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\nAuthorization: Bearer ${closer.token}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":"half`);
    await new Promise((r) => setTimeout(r, 100));
    sock.destroy();
    const audit = service.svc.backend!.audit;
    let rec: { status: number; op: string } | undefined;
    for (let i = 0; i < 40 && !rec; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rec = (await audit.auditFor(closer.id)).find((r) => r.op === 'create_profile_rest');
    }
    expect(rec?.status).toBe(499);
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe('the HTTP server limits', () => {
  it('bound request and header time and open connections with the doors registry values', () => {
    expect(service.server.requestTimeout).toBe(DOORS.v.request_timeout_ms);
    expect(service.server.headersTimeout).toBe(DOORS.v.headers_timeout_ms);
    expect(service.server.maxConnections).toBe(DOORS.v.max_connections);
  });
});
