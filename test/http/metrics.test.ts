// GET /metrics on a started service: operator secret required, Prometheus text, and the counters move by exactly the
// requests made between two scrapes (latency by operation and status class, rate-limit refusals by door), the pool
// gauges after valuations, the listings run outcome after POST /api/run-listings, stale rows as health counts them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/auth/limiter.js';
import { ErrorBodySchema } from '../../src/http/errors.js';
import { kernelChoice } from '../../src/kernel/index.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { OPERATOR_SECRET, bearer, mintKey } from '../mcp/support.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { parsePrometheusText, sampleValue, type Sample } from '../support/prometheus-text.js';

const ANON_LIMIT = 4;
let service: ServiceHandle;

beforeAll(async () => {
  const config = testConfig(await smallCorpusDir(), { WRITE_SECRET: OPERATOR_SECRET, AVM_WORKERS: '1' });
  service = await startService(config, { installSignalHandlers: false, limiter: createLimiter({ anonLimit: ANON_LIMIT }) });
});
afterAll(async () => {
  await service?.close();
});

async function scrape(): Promise<Sample[]> {
  const res = await fetch(`${service.url}/metrics`, { headers: bearer(OPERATOR_SECRET) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(await res.text());
}

const requestCount = (s: Sample[], operation: string, statusClass: string): number => sampleValue(s, 'avm_http_request_duration_seconds_count', { operation, status_class: statusClass });

/** A JSON-RPC tools/call on /mcp: the door draws it from the caller's rate-limit bucket before the tool server sees it. */
function mcpToolCall(): Promise<Response> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_pulse', arguments: {} } });
  return fetch(`${service.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body });
}

describe('GET /metrics', () => {
  it('answers 401 unauthorized without the operator secret, and spells only /metrics', async () => {
    const res = await fetch(`${service.url}/metrics`, { headers: bearer('not-the-operator-secret-at-all') });
    expect(res.status).toBe(401);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('unauthorized');
    const other = await fetch(`${service.url}/Metrics/`, { headers: bearer(OPERATOR_SECRET) });
    expect(other.status).toBe(404);
    expect(ErrorBodySchema.parse(await other.json()).error.details).toEqual({ canonical_path: '/metrics' });
  });

  it('counts each request once by operation and status class, and each 429 by its door', async () => {
    const before = await scrape();
    const used = 1; // the 401 scrape of the test above drew on this IP's anonymous bucket
    for (let i = used; i < ANON_LIMIT; i++) expect((await fetch(`${service.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${service.url}/api/health`)).status).toBe(429);
    expect((await mcpToolCall()).status).toBe(429);
    const after = await scrape();
    expect(requestCount(after, 'health', '2xx') - requestCount(before, 'health', '2xx')).toBe(ANON_LIMIT - used);
    expect(requestCount(after, 'health', '4xx') - requestCount(before, 'health', '4xx')).toBe(1);
    expect(requestCount(after, 'mcp', '4xx') - requestCount(before, 'mcp', '4xx')).toBe(1);
    expect(requestCount(after, 'metrics', '2xx') - requestCount(before, 'metrics', '2xx')).toBe(1); // the first scrape
    const refusals = (s: Sample[], door: string): number => sampleValue(s, 'avm_rate_limit_refusals_total', { door });
    expect([refusals(after, 'rest') - refusals(before, 'rest'), refusals(after, 'mcp') - refusals(before, 'mcp')]).toEqual([1, 1]);
    expect(sampleValue(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    // Which kernel front-end runs: the native addon when it loads here, else WASM (src/kernel/select.ts).
    expect(sampleValue(after, 'avm_kernel_info', { front_end: kernelChoice().frontEnd })).toBe(1);
  });

  it('reports the worker pool after valuations: one thread, busy some of the time, nothing left queued', async () => {
    const key = await mintKey(service, ['read']);
    const before = await scrape();
    expect(sampleValue(before, 'avm_pool_threads')).toBe(0); // the pool starts on the first valuation
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${service.url}/api/underwrite?lat=41.8&lon=${-87.7 + i * 0.01}&price=300000&units=2`, { headers: bearer(key.token) });
      expect(res.status).toBe(200);
    }
    const after = await scrape();
    expect(requestCount(after, 'underwrite_rest', '2xx') - requestCount(before, 'underwrite_rest', '2xx')).toBe(2);
    expect(sampleValue(after, 'avm_pool_threads')).toBe(1);
    expect(sampleValue(after, 'avm_pool_queue_depth')).toBe(0);
    expect(sampleValue(after, 'avm_pool_tasks_in_flight')).toBe(0);
    const utilization = sampleValue(after, 'avm_pool_utilization_ratio');
    expect(utilization).toBeGreaterThan(0);
    expect(utilization).toBeLessThanOrEqual(1);
  });

  it('records a listings run: one success, its row counts and finish time; stale rows as health reports them', async () => {
    const before = await scrape();
    const res = await fetch(`${service.url}/api/run-listings`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...bearer(OPERATOR_SECRET) }, body: '{}' });
    expect(res.status).toBe(200);
    const run = (await res.json()) as { active: number; scored: number; feed_rows: number; wall_ms: number };
    const after = await scrape();
    const runs = (s: Sample[], outcome: string): number => sampleValue(s, 'avm_listings_runs_total', { outcome });
    expect([runs(after, 'success') - runs(before, 'success'), runs(after, 'failure') - runs(before, 'failure')]).toEqual([1, 0]);
    expect(sampleValue(after, 'avm_listings_last_run_rows', { kind: 'active' })).toBe(run.active);
    expect(sampleValue(after, 'avm_listings_last_run_rows', { kind: 'scored' })).toBe(run.scored);
    expect(sampleValue(after, 'avm_listings_last_run_rows', { kind: 'feed' })).toBe(run.feed_rows);
    expect(sampleValue(after, 'avm_listings_last_run_duration_seconds')).toBeCloseTo(run.wall_ms / 1000, 3);
    expect(Math.abs(sampleValue(after, 'avm_listings_last_run_timestamp_seconds', { outcome: 'success' }) - Date.now() / 1000)).toBeLessThan(60);
    // Two active rows as an older model left them: stale until the next run rescores them.
    const active = service.svc.store.getListings().filter((l) => l.status === 'active').slice(0, 2);
    await service.svc.store.putListings(active.map((l) => ({ ...l, model_version: 'avm-2020.1.0' })));
    const key = await mintKey(service, ['read']); // this IP's anonymous quota is spent
    const health = (await (await fetch(`${service.url}/api/health`, { headers: bearer(key.token) })).json()) as { stale_model_rows: number };
    expect(health.stale_model_rows).toBe(sampleValue(after, 'avm_listings_stale_model_rows') + 2);
    expect(sampleValue(await scrape(), 'avm_listings_stale_model_rows')).toBe(health.stale_model_rows);
  });
});
