// The open web map's server side: GET / (the page under a same-origin-only policy), its GeoJSON layers
// (GET /api/geo/tracts with the tract signals, null kept as null; the CCAO outlines) revalidated by ETag, and the
// client assets under /assets/ (the esbuild bundles and MapLibre's worker from its package), a closed set that does
// not spend the anonymous rate limit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../scripts/build.mjs';
import { TownshipShapesSchema, TractShapesSchema, NeighborhoodShapesSchema } from '../../src/contracts/geo.js';
import { TractListSchema } from '../../src/contracts/tracts.js';
import { REFERENCE_DIR } from '../../src/config.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { getOutcome, keepAliveAgent } from '../support/http-client.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';

let service: ServiceHandle;
beforeAll(async () => {
  build(); // the client bundles the asset routes serve (a no-op when dist/ is current)
  service = await startService(testConfig(await smallCorpusDir()), { installSignalHandlers: false });
}, 300_000);
afterAll(async () => service?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.url}${path}`, { headers });
/**
 * A revalidation as a browser sends it from its cache. Not fetch(): a fetch carrying If-None-Match also sends
 * Cache-Control: no-cache (Fetch standard, HTTP-network-or-cache fetch), which rightly forbids the 304.
 */
const revalidate = async (path: string, etag: string): Promise<{ status: number; body: string }> => {
  const out = await getOutcome(`${service.url}${path}`, keepAliveAgent(), { 'If-None-Match': etag });
  if ('error' in out) throw new Error(out.error);
  return out;
};

describe('GET /', () => {
  it('serves the map shell: same-origin scripts, styles, workers and connections only; not frameable; linked to /model', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toBe("default-src 'none'; script-src 'self'; style-src 'self'; worker-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/assets/map.js"></script>');
    expect(html).toContain('href="/model"');
    expect(html).not.toMatch(/https?:\/\//); // nothing named outside the service
  });
});

describe('GET /api/geo/*', () => {
  it('answers every mapped tract with its polygon and the tract list\'s signals, null where the data had none', async () => {
    const res = await get('/api/geo/tracts');
    expect(res.status).toBe(200);
    const fc = TractShapesSchema.parse(await res.json());
    const list = TractListSchema.parse(await (await get('/api/tracts/chicago')).json());
    expect(fc.features.length).toBe(list.count);
    const byGeoid = new Map(list.tracts.map((t) => [t.geoid, t]));
    for (const f of fc.features) {
      const t = byGeoid.get(f.properties.geoid)!;
      for (const k of ['flip_score', 'brrrr_score', 'effective_tax_rate', 'section8_gap'] as const) expect(f.properties[k]).toBe(t[k]);
    }
    // The small corpus leaves some tracts without the sales a score needs: they stay null (no data), never 0.
    expect(fc.features.some((f) => f.properties.flip_score === null)).toBe(true);
    expect(fc.features.some((f) => typeof f.properties.hold_score === 'number')).toBe(true);
  });

  it('revalidates by ETag: the same layer again is a 304 without a body', async () => {
    for (const path of ['/api/geo/tracts', '/api/geo/neighborhoods', '/api/geo/townships']) {
      const first = await get(path);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^"[\w-]+"$/);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const again = await revalidate(path, etag!);
      expect(again.status, path).toBe(304);
      expect(again.body).toBe('');
    }
  });

  it('serves the committed CCAO neighborhood and township outlines', async () => {
    const nb = NeighborhoodShapesSchema.parse(await (await get('/api/geo/neighborhoods')).json());
    const tw = TownshipShapesSchema.parse(await (await get('/api/geo/townships')).json());
    const committed = (f: string) => (JSON.parse(readFileSync(join(REFERENCE_DIR, f), 'utf8')) as { features: unknown[] }).features.length;
    expect(nb.features.length).toBe(committed('neighborhoods.geojson'));
    expect(tw.features.length).toBe(committed('townships.geojson'));
  });
});

describe('GET /assets/<name>', () => {
  it('serves the bundle, its stylesheet and MapLibre\'s worker module from the installed package', async () => {
    for (const [path, type] of [['/assets/map.js', 'text/javascript'], ['/assets/map.css', 'text/css'], ['/assets/maplibre-gl-worker.mjs', 'text/javascript']]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await revalidate(path, res.headers.get('etag')!)).status, path).toBe(304);
    }
  });

  it('refuses names outside the set with not_found, and other spellings by the canonical-path guard', async () => {
    for (const path of ['/assets/nope.js', '/assets/map.ts', '/assets/..%2fpackage.json', '/Assets/map.js', '/assets/map.js/']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe('not_found');
    }
  });

  it('does not spend the anonymous rate limit (a page load fetches several files)', async () => {
    const statuses = await Promise.all(Array.from({ length: 40 }, () => get('/assets/map.css').then((r) => r.status)));
    expect(statuses.every((s) => s === 200)).toBe(true);
  });
});
