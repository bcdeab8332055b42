// The listings run values and scores as the doors do (issue 12), on the default corpus: after a run through the worker
// pool, every stored
// listing row carries the valuation /api/property serves for that listing id (same inputs_hash, ARV, range, method,
// outcome), its facts sourced from the listing (never `caller`), and deep_underwrite_asset places the listing in the
// inventory at the percentiles the run gave it. Alerts read those rows (alertRowOf), so they carry the same numbers.
// The default corpus' calibration may fail the promotion gates (it did on generator 3.0.0 and 3.1.0 before the
// prior-sale evidence: PRD/PRB outside the IAAO ranges): then no champion calibration exists, no answer is a point and
// none is scored, and the tests check that instead (both states keep the parity checks).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runListings } from '../../src/listings/job.js';
import type { ScoredListing } from '../../src/listings/rows.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { STRATEGIES } from '../../src/underwriting/types.js';
import { bearer, mcpClient, mintKey, roomyLimiter } from '../mcp/support.js';
import { defaultCorpusDir, testConfig } from '../support/corpus.js';
import { parcelPoints } from '../support/served-corpus.js';
import { openModelRegistry } from '../../src/registry/model-registry.js';
import type { Config } from '../../src/config.js';
import { onOneUtcDay } from '../support/utc-day.js';

type Json = Record<string, any>;

let service: ServiceHandle;
let client: Client;
let rows: ScoredListing[];
/** The UTC day the run valued the rows on (valuations are as of today). */
let runDay: string;
let config: Config;
let points: Awaited<ReturnType<typeof parcelPoints>>;
/** Whether the corpus' calibration passed the promotion gates (a champion exists). */
let calibrated: boolean;

/** The listings run, as the job runs it, on `day` (a run values every listing as of the UTC date it starts on). */
async function runOnce(day: string): Promise<void> {
  rows = (await runListings({ config, store: service.svc.store, kind: 'manual', alerts: false })).rows;
  runDay = day;
}

beforeAll(async () => {
  const dataDir = await defaultCorpusDir();
  points = await parcelPoints(dataDir);
  config = testConfig(dataDir);
  service = await startService(config, { installSignalHandlers: false, limiter: roomyLimiter() });
  client = await mcpClient(service, bearer((await mintKey(service, ['read', 'underwrite'], 100_000)).token));
  await onOneUtcDay(runOnce);
  calibrated = openModelRegistry(service.svc.store).document().champion !== null;
}, 600_000);

afterAll(async () => {
  await client?.close();
  await service?.close();
});

describe('listings run ↔ doors', () => {
  it('runs in the calibration state the corpus is known to have (so the checks below say which branch they took)', () => {
    // Seed 20261121 on generator 3.1.0 failed the promotion gates (PRD 1.032) until Tier 1 read the subject's own
    // earlier sale (README "The subject's own earlier sale": PRD 1.021); since then a champion exists, points are
    // served and scored, and the point branches below run. A model change that fails the gates again fails here first.
    const latest = openModelRegistry(service.svc.store).document().history[0];
    expect(latest?.gates.passed, 'the latest calibration passed the gates').toBe(true);
    expect(calibrated).toBe(true);
  });

  it('/api/listings/chicago: every row carries the disclosure beside its valuation numbers', async () => {
    const body = (await (await fetch(`${service.url}/api/listings/chicago`)).json()) as Json;
    expect(body.count).toBeGreaterThan(20);
    for (const row of body.listings) expect(row.disclosure, row.listing_id).toMatch(/not an appraisal/);
    expect(body.disclosure).toMatch(/not an appraisal/);
  });

  it('no scored listing has a negative NOI unless its strategy gate allows it (none does)', () => {
    for (const r of rows) {
      for (const s of STRATEGIES) {
        const e = (r as Json).investor_targets;
        if (r.percentiles[s] !== null && r.best_strategy === s && e) expect(e.noi === null || e.noi >= 0, `${r.listing_id} ${s} NOI ${e.noi}`).toBe(true);
      }
    }
  });

  it('every Tier-1 answer carries its calibrated interval; a segment without a row names the declared fallback', async () => {
    let fallbacks = 0;
    let tier1 = 0;
    for (const r of rows) {
      const v = ((await (await fetch(`${service.url}/api/property?property_id=${r.listing_id}`)).json()) as Json).investor.valuation;
      if (v.arv.method_tier !== 1) continue;
      tier1++;
      if (!calibrated) {
        // No champion calibration: no calibrated interval, no confidence, and never a point.
        expect(v.arv.interval?.calibrated ?? false, r.listing_id).toBe(false);
        expect(v.display.point_actionable, r.listing_id).toBe(false);
        continue;
      }
      expect(v.arv.interval, r.listing_id).toMatchObject({ calibrated: true, segment: expect.any(String), version: expect.any(String), method: 'split_conformal' });
      expect(v.arv.segment, r.listing_id).toBe(v.arv.interval.calibration_fallback?.for_segment ?? v.arv.segment);
      expect(v.arv.confidence_p10, r.listing_id).toEqual(expect.any(Number));
      if (v.arv.interval.calibration_fallback) {
        fallbacks++;
        expect(v.arv.range_only, r.listing_id).toBe(true);
        expect(v.arv.range_reason, r.listing_id).toMatch(/calibration_display_gate/);
      }
    }
    expect(tier1).toBeGreaterThan(50);
    if (!calibrated) return;
    // seed 20261121: since the bedroom band compares bedrooms per unit (issue 14 item 5), mf2_4_suburb has 49 valued
    // calibration sales (5 before) and a row of its own, displayed as a range (test cov80 outside the gate); no listing
    // is one with Tier-1 comps, so look among the 2-4 unit parcels as a caller would ask about them. The pooled
    // fallback row itself is covered by the segment unit tests.
    expect(fallbacks, 'no segment of this corpus falls back to a pooled row').toBe(0);
    let suburb = 0;
    const multi = points.filter((p) => p.units >= 2);
    for (let k = 0; k < multi.length && suburb === 0; k += Math.max(1, Math.floor(multi.length / 400))) {
      const p = multi[k];
      const v = ((await (await fetch(`${service.url}/api/property?lat=${p.lat}&lon=${p.lon}&units=${p.units}`)).json()) as Json).investor.valuation;
      if (v.arv.method_tier !== 1 || v.arv.segment !== 'mf2_4_suburb') continue;
      suburb++;
      expect(v.arv).toMatchObject({ range_only: true, interval: { calibrated: true, segment: expect.stringMatching(/^mf2_4_suburb/), calibration_fallback: null } });
    }
    expect(suburb, 'a mf2_4_suburb Tier-1 answer served from its own row').toBeGreaterThan(0);
  }, 300_000);

  it('search_investment_inventory takes a CCAO neighborhood or township name as geography, and refuses a name it cannot place', async () => {
    const call = async (geography: string) => client.callTool({ name: 'search_investment_inventory', arguments: { strategy: 'house_hack', geography } });
    for (const name of ['Lake View', 'lake_view 1', 'Hyde Park', 'Evanston', 'Chicago']) expect((await call(name)).isError, name).toBeFalsy();
    const all = (await call('Chicago')).structuredContent as Json;
    const lakeView = (await call('Lake View')).structuredContent as Json;
    expect(lakeView.total).toBeLessThanOrEqual(all.total);
    const refused = await call('Logan Square');
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as Array<{ text: string }>)[0].text).error.code).toBe('validation_failed');
  });

  it('an unknown listing id is property_not_found (404), before any unit count is asked for', async () => {
    const res = await fetch(`${service.url}/api/property?property_id=LST-NOPE`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).error.code).toBe('property_not_found');
  });

  it('every stored listing carries the valuation the REST door serves for its id', async () => {
    expect(rows.length).toBeGreaterThan(20);
    const pointRows = rows.filter((r) => r.valuation.outcome === 'point').length;
    if (calibrated) expect(pointRows, 'point-valued listings').toBeGreaterThan(20);
    else expect(pointRows, 'no point without a champion calibration').toBe(0);
    // Rows and answers of one UTC day: the run was minutes before, and a midnight between them changes every
    // inputs_hash (valuations are as of today); then the run is made again on the answers' day.
    const pairs = await onOneUtcDay(async (day) => {
      if (day !== runDay) await runOnce(day);
      const out: Array<{ r: ScoredListing; v: Json }> = [];
      for (const r of rows) out.push({ r, v: ((await (await fetch(`${service.url}/api/property?property_id=${r.listing_id}`)).json()) as Json).investor.valuation });
      return out;
    });
    for (const { r, v } of pairs) {
      const served = { inputs_hash: v.inputs_hash, arv_low: v.arv.low, arv_high: v.arv.high, arv_method: v.arv.method, outcome: v.display.outcome, arv_value: v.display.point_actionable ? v.arv.value : null };
      const stored = { inputs_hash: r.valuation.inputs_hash, arv_low: r.valuation.arv_low, arv_high: r.valuation.arv_high, arv_method: r.valuation.arv_method, outcome: r.valuation.outcome, arv_value: r.valuation.arv_value };
      expect(stored, r.listing_id).toEqual(served);
      expect(v.subject).toMatchObject({ listing_id: r.listing_id, price_source: 'listing' });
    }
  }, 300_000);

  it('deep_underwrite_asset places a scored listing at the percentiles the run gave it', async () => {
    const scored = rows.filter((r) => r.strategy_scores !== null);
    if (!calibrated) {
      // Scores need a point valuation: without a champion calibration none is scored, through the run and the door alike.
      expect(scored, 'no listing scored without a point').toEqual([]);
      for (const r of rows.slice(0, 10)) {
        const out = (await client.callTool({ name: 'deep_underwrite_asset', arguments: { property_id: r.listing_id } })).structuredContent as Json;
        for (const s of STRATEGIES) expect(out.strategy_scores?.[s] ?? null, `${r.listing_id} ${s}`).toBe(null);
      }
      return;
    }
    expect(scored.length, 'listings with a point valuation').toBeGreaterThan(0);
    for (const r of scored.slice(0, 25)) {
      const out = (await client.callTool({ name: 'deep_underwrite_asset', arguments: { property_id: r.listing_id } })).structuredContent as Json;
      for (const s of STRATEGIES) expect(out.strategy_scores?.[s] ?? null, `${r.listing_id} ${s}`).toBe(r.percentiles[s]);
      expect(out.scoring.listings_run).toBe(service.svc.store.lastRun()?.finished);
    }
  }, 300_000);
});
