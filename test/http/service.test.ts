// startService on a small generated corpus: health and tracts through real HTTP on loopback, checked against the
// zod contracts; errors come back in the one error shape with a taxonomy code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthSchema } from '../../src/contracts/health.js';
import { TractListSchema } from '../../src/contracts/tracts.js';
import { ErrorBodySchema } from '../../src/http/errors.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';

let service: ServiceHandle;

beforeAll(async () => {
  service = await startService(testConfig(await smallCorpusDir()), { installSignalHandlers: false });
});
afterAll(async () => {
  await service?.close();
});

describe('GET /api/health', () => {
  it('is ok with both storage bindings and matches the health schema', async () => {
    const res = await fetch(`${service.url}/api/health`);
    expect(res.status).toBe(200);
    const body = HealthSchema.parse(await res.json());
    expect(body.ok).toBe(true);
    expect(body.bindings.lmdb.ok).toBe(true);
    expect(body.bindings.sales_snapshot.ok).toBe(true);
    expect(body.corpus_vintage).toMatch(/synthetic/);
  });
});

describe('GET /api/tracts/chicago', () => {
  it('lists exactly 1,662 tracts (generator 3.0.0: 802 real Chicago, 700 suburban Cook, 160 Lake) with 11-digit Cook or Lake GEOIDs and a synthetic vintage', async () => {
    const res = await fetch(`${service.url}/api/tracts/chicago`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const body = TractListSchema.parse(await res.json());
    expect(body.count).toBe(1662);
    expect(body.tracts).toHaveLength(1662);
    expect(body.vintage).toMatch(/synthetic/);
    const geoids = new Set(body.tracts.map((t) => t.geoid));
    expect(geoids.size).toBe(1662);
    for (const t of body.tracts) expect(t.geoid.startsWith(t.county === 'cook' ? '17031' : '17097')).toBe(true);
    expect(body.tracts.some((t) => t.county === 'lake')).toBe(true);
  });

  it('serves the cached body on a second call within the hour', async () => {
    const a = await (await fetch(`${service.url}/api/tracts/chicago`)).text();
    const b = await (await fetch(`${service.url}/api/tracts/chicago`)).text();
    expect(b).toBe(a);
  });
});

describe('errors', () => {
  it('answers an unknown path with 404 not_found in the error shape', async () => {
    const res = await fetch(`${service.url}/api/nope`);
    expect(res.status).toBe(404);
    const body = ErrorBodySchema.parse(await res.json());
    expect(body.error.code).toBe('not_found');
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('answers a wrong method on a known path with 405 method_not_allowed', async () => {
    const res = await fetch(`${service.url}/api/health`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('method_not_allowed');
  });
});
