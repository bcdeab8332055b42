// The listings run values and scores as the doors do (issue 12), on the default corpus (the listings there are valued
// as points and scored): after a run through the worker pool, every stored
// listing row carries the valuation /api/property serves for that listing id (same inputs_hash, ARV, range, method,
// outcome), its facts sourced from the listing (never `caller`), and deep_underwrite_asset places the listing in the
// inventory at the percentiles the run gave it. Alerts read those rows (alertRowOf), so they carry the same numbers.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runListings } from '../../src/listings/job.js';
import type { ScoredListing } from '../../src/listings/rows.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { STRATEGIES } from '../../src/underwriting/types.js';
import { bearer, mcpClient, mintKey, roomyLimiter } from '../mcp/support.js';
import { defaultCorpusDir, testConfig } from '../support/corpus.js';

type Json = Record<string, any>;

let service: ServiceHandle;
let client: Client;
let rows: ScoredListing[];

beforeAll(async () => {
  const dataDir = await defaultCorpusDir();
  const config = testConfig(dataDir);
  service = await startService(config, { installSignalHandlers: false, limiter: roomyLimiter() });
  client = await mcpClient(service, bearer((await mintKey(service, ['read', 'underwrite'], 100_000)).token));
  rows = (await runListings({ config, store: service.svc.store, kind: 'manual', alerts: false })).rows;
}, 600_000);

afterAll(async () => {
  await client?.close();
  await service?.close();
});

describe('listings run ↔ doors', () => {
  it('every stored listing carries the valuation the REST door serves for its id', async () => {
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.valuation.outcome === 'point').length, 'point-valued listings').toBeGreaterThan(20);
    for (const r of rows) {
      const v = ((await (await fetch(`${service.url}/api/property?property_id=${r.listing_id}`)).json()) as Json).investor.valuation;
      const served = { inputs_hash: v.inputs_hash, arv_low: v.arv.low, arv_high: v.arv.high, arv_method: v.arv.method, outcome: v.display.outcome, arv_value: v.display.point_actionable ? v.arv.value : null };
      const stored = { inputs_hash: r.valuation.inputs_hash, arv_low: r.valuation.arv_low, arv_high: r.valuation.arv_high, arv_method: r.valuation.arv_method, outcome: r.valuation.outcome, arv_value: r.valuation.arv_value };
      expect(stored, r.listing_id).toEqual(served);
      expect(v.subject).toMatchObject({ listing_id: r.listing_id, price_source: 'listing' });
    }
  }, 300_000);

  it('deep_underwrite_asset places a scored listing at the percentiles the run gave it', async () => {
    const scored = rows.filter((r) => r.strategy_scores !== null);
    expect(scored.length, 'listings with a point valuation').toBeGreaterThan(0);
    for (const r of scored.slice(0, 25)) {
      const out = (await client.callTool({ name: 'deep_underwrite_asset', arguments: { property_id: r.listing_id } })).structuredContent as Json;
      for (const s of STRATEGIES) expect(out.strategy_scores?.[s] ?? null, `${r.listing_id} ${s}`).toBe(r.percentiles[s]);
      expect(out.scoring.listings_run).toBe(service.svc.store.lastRun()?.finished);
    }
  }, 300_000);
});
