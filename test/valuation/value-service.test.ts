// The served doors of issue 4 over real HTTP on a calibrated test corpus: /api/underwrite through the worker pool
// (`value` task), query validation, /api/model-registry and /api/metrics/scorecard. Needs the compiled worker
// (`npm run build` first; `npm test` does it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValuationSchema } from '../../src/contracts/valuation.js';
import { ErrorBodySchema } from '../../src/http/errors.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { openStore } from '../../src/store/store.js';
import { calibrate } from '../../src/valuation/calibration/job.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';

let service: ServiceHandle;
let listing: { lat: number; lon: number; price_usd: number; units: number | null };
let calibration: { version: string; promoted: boolean };

beforeAll(async () => {
  const dataDir = await smallCorpusDir();
  const store = openStore(dataDir);
  ({ report: calibration } = await calibrate(store, { dataDir, resultsDir: null }));
  listing = store.getListings().find((l) => l.property_type === 'sfh')!;
  await store.close();
  service = await startService(testConfig(dataDir, { AVM_WORKERS: '1' }), { installSignalHandlers: false });
}, 300_000);

afterAll(async () => {
  await service?.close();
});

describe('GET /api/underwrite', () => {
  it('returns one valuation object computed in the worker pool', async () => {
    const q = new URLSearchParams({ lat: String(listing.lat), lon: String(listing.lon), price: String(listing.price_usd), units: '1' });
    const res = await fetch(`${service.url}/api/underwrite?${q}`);
    expect(res.status).toBe(200);
    const v = ValuationSchema.parse(await res.json());
    expect(v.subject).toMatchObject({ price: listing.price_usd, price_source: 'caller', units: 1, units_source: 'caller' });
    expect(v.disclosure).toMatch(/not an appraisal/);
  }, 120_000);

  it.each([
    ['lat out of range', { lat: '91', lon: '-87.7', price: '1', units: '1' }],
    ['units not 1-4', { lat: '41.9', lon: '-87.7', price: '1', units: '5' }],
    ['price not positive', { lat: '41.9', lon: '-87.7', price: '0', units: '1' }],
    ['missing lon', { lat: '41.9', price: '1', units: '1' }],
  ])('rejects %s with validation_failed (400)', async (_name, query) => {
    const res = await fetch(`${service.url}/api/underwrite?${new URLSearchParams(query)}`);
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('validation_failed');
  });
});

describe('registry and scorecard', () => {
  it('GET /api/model-registry names the latest calibration with its digest and gates', async () => {
    const body = (await (await fetch(`${service.url}/api/model-registry`)).json()) as { history: Array<{ digest: string; gates: { checks: unknown[] } }>; model_version: string };
    expect(body.model_version).toBeTypeOf('string');
    expect(body.history[0].digest).toMatch(/^[0-9a-f]{64}$/);
    expect(body.history[0].gates.checks.length).toBeGreaterThan(0);
  });

  it('GET /api/metrics/scorecard answers per-segment rates or says nothing is promoted', async () => {
    const body = (await (await fetch(`${service.url}/api/metrics/scorecard`)).json()) as { segments: Array<{ segment: string; mdape: number | null; suppression_rate: number | null }>; calibration_version: string | null };
    // The fixture's own calibration run says whether it was promoted: promoted → its version with one named row per
    // segment; not promoted → nothing to publish.
    expect(body.calibration_version).toBe(calibration.promoted ? calibration.version : null);
    expect(body.segments.length > 0).toBe(calibration.promoted);
    if (body.calibration_version === null) expect(body.segments).toEqual([]);
    for (const s of body.segments) expect(s.segment).toMatch(/^(sfh|mf2_4|condo)_(city|suburb)$/);
  });
});
