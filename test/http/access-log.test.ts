// The request id and the access log on a started service: a sane incoming X-Request-Id is kept and returned, any other
// replaced; one JSON line per request (method, route, operation, status, duration, key id, never the key or the
// query); the same id in the error body and the audit record; a 5xx logged once more, with its id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/app/engine.js';
import { AppError } from '../../src/errors/app-error.js';
import { AUTH_LIMITS } from '../../src/registry/groups/auth.js';
import { ErrorBodySchema } from '../../src/http/errors.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { bearer, mintKey, roomyLimiter } from '../mcp/support.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { captureLogLines, type LogLine } from '../support/log-lines.js';

type Line = LogLine;
const { sink, lines } = captureLogLines();

let service: ServiceHandle;
beforeAll(async () => {
  service = await startService(testConfig(await smallCorpusDir(), { AVM_LOG_LEVEL: 'info' }), { installSignalHandlers: false, limiter: roomyLimiter(), logDestination: sink });
});
afterAll(async () => {
  await service?.close();
});

/** The access-log line of a request, once its response has closed (the line is written on close). */
async function accessLine(requestId: string): Promise<Line> {
  const hits = (): Line[] => lines.filter((l) => l.msg === 'request' && l.request_id === requestId);
  await expect.poll(() => hits().length).toBe(1);
  return hits()[0];
}

describe('X-Request-Id', () => {
  it('keeps a sane incoming id and returns it; replaces one with spaces or over 128 characters by a UUID', async () => {
    const kept = await fetch(`${service.url}/api/health`, { headers: { 'X-Request-Id': 'lb-7f3a.42:trace_9' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42:trace_9');
    for (const bad of ['two words', 'x'.repeat(129), '<script>']) {
      const res = await fetch(`${service.url}/api/health`, { headers: { 'X-Request-Id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('is the error body request_id and the audit record request_id of the same request', async () => {
    const key = await mintKey(service, ['read']);
    const res = await fetch(`${service.url}/api/property?address=nowhere%20at%20all`, { headers: { ...bearer(key.token), 'X-Request-Id': 'req-404-check' } });
    expect(res.status).toBe(404);
    expect(ErrorBodySchema.parse(await res.json()).error.request_id).toBe('req-404-check');
    // the audit writes its batch every audit_batch_ms
    const auditIds = async (): Promise<string[]> => (await service.svc.backend!.audit.auditFor(key.id)).map((r) => r.request_id);
    await expect.poll(auditIds, { timeout: 5_000, interval: AUTH_LIMITS.v.audit_batch_ms }).toContain('req-404-check');
  });
});

describe('access log', () => {
  it('writes one line per request with route, operation, status, duration and the key id, never the key or the query', async () => {
    const key = await mintKey(service, ['read']);
    await fetch(`${service.url}/api/property?address=secret%20street`, { headers: { ...bearer(key.token), 'X-Request-Id': 'req-access-1' } });
    const line = await accessLine('req-access-1');
    expect(line).toMatchObject({ level: 30, method: 'GET', path: '/api/property', operation: 'property', status: 404, key_id: key.id, error_code: 'property_not_found' });
    expect(typeof line.duration_ms).toBe('number');
    expect(typeof line.time).toBe('string');
    const all = JSON.stringify(lines);
    expect(all).not.toContain(key.token);
    expect(all).not.toContain('secret');
  });

  it('names an unserved path by its canonical spelling and an anonymous caller by no key id', async () => {
    await fetch(`${service.url}/api/NOPE/`, { headers: { 'X-Request-Id': 'req-access-2' } });
    const line = await accessLine('req-access-2');
    expect(line).toMatchObject({ path: '/api/nope', operation: 'unmatched', status: 404, error_code: 'not_found' });
    expect(line.key_id).toBeUndefined();
  });

  it('logs a 5xx once as an error carrying its request id and code, beside its access line', async () => {
    const engine = service.svc.engine!;
    const failing: Engine = { ...engine, answer: async () => { throw new AppError('internal_error', 'boom', { cause: new Error('kernel exploded') }); } };
    service.svc.engine = failing;
    try {
      const res = await fetch(`${service.url}/api/underwrite?lat=41.8&lon=-87.7&price=300000&units=2`, { headers: { 'X-Request-Id': 'req-500' } });
      expect(res.status).toBe(500);
      expect(ErrorBodySchema.parse(await res.json()).error).toMatchObject({ code: 'internal_error', message: 'internal error', request_id: 'req-500' });
    } finally {
      service.svc.engine = engine;
    }
    await accessLine('req-500');
    const errors = lines.filter((l) => l.level === 50 && l.request_id === 'req-500');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: 'request failed', code: 'internal_error' });
  });
});
