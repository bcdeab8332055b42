import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FallbackAttemptSchema } from '../../../src/contracts/artifact.js';
import { runFallbackChain, type ChainSteps } from '../../../src/valuation/fallback/chain.js';
import { dayOfIso } from '../../../src/store/days.js';
import { closedPort, startFakeSoda, type FakeSoda } from './fake-soda.js';
import { AS_OF_ISO, DATA, SUBJECT } from './fixture.js';

const COOK = { county: 'cook' as const, ...SUBJECT, asOfDay: dayOfIso(AS_OF_ISO) };
const LAKE = { ...COOK, county: 'lake' as const };
const calls: string[] = [];
const steps = (corpusServes: boolean, extra: Partial<ChainSteps> = {}): ChainSteps => ({
  corpus: () => (calls.push('corpus'), { served: corpusServes, note: corpusServes ? 'valued from 8 corpus comps' : 'insufficient_renovated_comps (2 comps)' }),
  // the caller values open-data comps with the kernel; here: served when at least 3 sales came back
  opendata: (c) => (calls.push('opendata'), { served: c.columns.length >= 3, note: `kernel over ${c.columns.length} sales` }),
  ...extra,
});

describe('runFallbackChain', () => {
  let soda: FakeSoda;
  beforeAll(async () => { soda = await startFakeSoda(DATA); });
  afterAll(async () => { await soda.close(); });

  it('stops at the corpus when it serves, without touching the network', async () => {
    const before = soda.requests.length;
    const r = await runFallbackChain(COOK, { opendataBaseUrl: soda.baseUrl, forceOpendata: false }, steps(true));
    expect(r.chain).toEqual([{ source: 'corpus', served: true, note: 'valued from 8 corpus comps' }]);
    expect(r.served).toBe('corpus');
    expect(soda.requests.length).toBe(before);
  });

  it('falls back to the open-data client for Cook, recording missing fields', async () => {
    const r = await runFallbackChain(COOK, { opendataBaseUrl: soda.baseUrl, forceOpendata: false }, steps(false));
    expect(r.chain.map((a) => [a.source, a.served])).toEqual([['corpus', false], ['opendata_fallback', true]]);
    expect(r.chain[1].fields_missing).toEqual(['beds', 'condition', 'sqft', 'tract', 'year_built']);
    expect(r.chain[1].note).toContain('3 open-data sales');
    expect(r.served).toBe('opendata_fallback');
    for (const a of r.chain) expect(FallbackAttemptSchema.safeParse(a).success).toBe(true);
  });

  it('reports opendata_forced and skips the corpus when configuration forces it', async () => {
    calls.length = 0;
    const r = await runFallbackChain(COOK, { opendataBaseUrl: soda.baseUrl, forceOpendata: true }, steps(true));
    expect(calls).toEqual(['opendata']);
    expect(r.chain.map((a) => [a.source, a.served])).toEqual([['corpus', false], ['opendata_forced', true]]);
    expect(r.chain[0].note).toMatch(/forced/);
  });

  it('fails fast without network and says so, then ends with none', async () => {
    const port = await closedPort();
    const r = await runFallbackChain(COOK, { opendataBaseUrl: `http://127.0.0.1:${port}/resource`, forceOpendata: false }, steps(false));
    expect(r.chain.map((a) => [a.source, a.served])).toEqual([['corpus', false], ['opendata_fallback', false], ['none', false]]);
    expect(r.chain[1].note).toMatch(/unreachable \(ECONNREFUSED\); failed fast \(connect timeout 1500 ms/);
    expect(r.served).toBeNull();
  });

  it('treats a portal that accepts but never answers as unreachable after the request budget', async () => {
    const hang = await startFakeSoda(DATA, { hang: true });
    try {
      const r = await runFallbackChain(COOK, { opendataBaseUrl: hang.baseUrl, forceOpendata: false, requestTimeoutMs: 150 }, steps(false));
      expect(r.chain[1].note).toContain('no complete reply within 150 ms');
    } finally {
      await hang.close();
    }
  });

  it('records an HTTP error from the portal', async () => {
    const broken = await startFakeSoda(DATA, { status: 500 });
    try {
      const r = await runFallbackChain(COOK, { opendataBaseUrl: broken.baseUrl, forceOpendata: false }, steps(false));
      expect(r.chain[1]).toMatchObject({ source: 'opendata_fallback', served: false });
      expect(r.chain[1].note).toContain('HTTP 500');
    } finally {
      await broken.close();
    }
  });

  it('records an empty open-data answer as not served', async () => {
    const empty = await startFakeSoda({ 'nj4t-kc8j': [], 'wvhk-k5uv': [], 'x54s-btds': [] });
    try {
      const r = await runFallbackChain(COOK, { opendataBaseUrl: empty.baseUrl, forceOpendata: false }, steps(false));
      expect(r.chain.map((a) => a.source)).toEqual(['corpus', 'opendata_fallback', 'none']);
      expect(r.chain[1].note).toContain('no usable sales (0 parcels in radius, 1 requests)');
    } finally {
      await empty.close();
    }
  });

  it('goes corpus → lake_gis for Lake subjects (open data is Cook-only)', async () => {
    const served = await runFallbackChain(LAKE, { opendataBaseUrl: soda.baseUrl, forceOpendata: false }, steps(false, { lakeGis: () => ({ served: true, note: 'lake GIS comps' }) }));
    expect(served.chain.map((a) => [a.source, a.served])).toEqual([['corpus', false], ['lake_gis', true]]);
    const none = await runFallbackChain(LAKE, { opendataBaseUrl: soda.baseUrl, forceOpendata: false }, steps(false));
    expect(none.chain.map((a) => [a.source, a.served])).toEqual([['corpus', false], ['lake_gis', false], ['none', false]]);
    const forced = await runFallbackChain(LAKE, { opendataBaseUrl: soda.baseUrl, forceOpendata: true }, steps(false));
    expect(forced.chain.map((a) => a.source)).toEqual(['corpus', 'opendata_forced', 'lake_gis', 'none']);
  });
});
