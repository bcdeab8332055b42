// The MCP App's reading of tool calls (src/web/client/app-scene.ts, app-answers.ts): which tool a result came from,
// what the controller tools' arguments ask of the map, how get_comps / deep_underwrite_asset become the evidence
// panel's /api/property body (field moves only), and that a listing without a location is left off the map.
import { describe, expect, it } from 'vitest';
import type { CompsOutput, UnderwriteAnswer } from '../../src/contracts/tools.js';
import { listingsBodyOf, panelBodyOfComps, panelBodyOfUnderwrite } from '../../src/web/client/app-answers.js';
import { inventoryArgsFor, sceneOfControllerInput, sceneOfResult, toolOfResult } from '../../src/web/client/app-scene.js';

describe('controller tools', () => {
  it('fly_to_location moves to coordinates; an address alone is reported, not guessed', () => {
    expect(sceneOfControllerInput('fly_to_location', { lat: 41.9, lon: -87.65, zoom: 13 })).toEqual({ kind: 'fly_to', target: { lat: 41.9, lon: -87.65, zoom: 13 } });
    expect(sceneOfControllerInput('fly_to_location', { lat: 41.9, lon: -87.65 })).toEqual({ kind: 'fly_to', target: { lat: 41.9, lon: -87.65, zoom: null } });
    expect(sceneOfControllerInput('fly_to_location', { address: '1 N State St' })).toEqual({ kind: 'fly_to_address', address: '1 N State St' });
  });

  it('update_map_filters carries its filters to the inventory query the page makes; highlight keeps string ids', () => {
    const scene = sceneOfControllerInput('update_map_filters', { strategy: 'flip', min_percentile: 50, statuses: ['active'] });
    expect(scene).toEqual({ kind: 'filters', filters: { strategy: 'flip', min_percentile: 50, statuses: ['active'] } });
    expect(inventoryArgsFor(scene)).toEqual({ strategy: 'flip', min_percentile: 50 });
    expect(sceneOfControllerInput('highlight_properties', { ids: ['LST-1', 7, 'LST-2'] })).toEqual({ kind: 'highlight', ids: ['LST-1', 'LST-2'] });
  });
});

describe('results', () => {
  it('tells the tools apart by their output shapes when the host does not name the tool', () => {
    expect(toolOfResult({ comps_used: [] })).toBe('get_comps');
    expect(toolOfResult({ valuation: null, offers: null })).toBe('deep_underwrite_asset');
    expect(toolOfResult({ results: [], next_cursor: null })).toBe('search_investment_inventory');
    expect(toolOfResult({ ok: true, event_id: 3, kind: 'fly_to' })).toBe('fly_to_location');
    expect(toolOfResult({ ok: true, event_id: 3, kind: 'note_added' })).toBeNull();
  });

  it('get_comps becomes a panel body: its numbers under the valuation names the panel reads, no pro-forma claim', () => {
    const comp = { pin: 'A', price: 300_000, lat: 41.89, lon: -87.71 };
    const rejected = { pin: 'C', reason: 'gla_band', lat: 41.9, lon: -87.72 };
    const answer = {
      disclosure: 'D', refusal: null, subject: { lat: 41.88, lon: -87.7 }, segment: 'sfh_city', outcome: 'range', method: 'comps', tier: 1, value: null,
      interval: { low: 381_000, high: 566_000 }, calibrated_interval: null, confidence: 61, suppression_reason: null, range_reason: 'dispersion', ladder_step: 2,
      comps_used: [comp], comps_rejected: [rejected],
    } as unknown as CompsOutput;
    const body = panelBodyOfComps(answer);
    expect(body).toMatchObject({ property: answer.subject, refusal: null, disclosure: 'D', investor: { risk: null, tract: null } });
    expect(body.investor.valuation).toMatchObject({
      display: { outcome: 'range' }, subject: answer.subject, artifact: { comps_rejected: [rejected] },
      arv: { value: null, low: 381_000, high: 566_000, range_only: true, method_tier: 1, confidence: 61, range_reason: 'dispersion', n_comps: 1, comps: [comp] },
    });
    expect(body.investor.valuation?.display).not.toHaveProperty('point_actionable');
    // No outcome (a refusal before any valuation): no valuation, the refusal carried as the answer.
    const refused = panelBodyOfComps({ ...answer, outcome: null, refusal: { code: 'units_required', message: 'pass units' } } as CompsOutput);
    expect(refused.investor.valuation).toBeNull();
    expect(refused.refusal).toEqual({ code: 'units_required', message: 'pass units' });
  });

  it('deep_underwrite_asset hands its valuation over as it is', () => {
    const valuation = { subject: { lat: 41.88, lon: -87.7 }, arv: { value: 1 } };
    const body = panelBodyOfUnderwrite({ disclosure: 'D', refusal: null, valuation } as unknown as UnderwriteAnswer);
    expect(body.investor.valuation).toBe(valuation);
    expect(body.property).toBe(valuation.subject);
    expect(panelBodyOfUnderwrite({ disclosure: 'D', refusal: null, valuation: null } as unknown as UnderwriteAnswer).property).toBeNull();
  });

  it('inventory rows become listing rows; rows without a position stay off the map, an unscored row keeps no percentile', () => {
    const page = { strategy: 'flip', results: [
      { listing_id: 'L1', address: '1 A St', lat: 41.9, lon: -87.6, price: 200_000, percentile: 80, confidence: 70 },
      { listing_id: 'L2', price: 1 },
      { listing_id: 'L3', address: '3 C St', lat: 41.8, lon: -87.7, price: 150_000 },
    ] };
    expect(sceneOfResult('search_investment_inventory', { structuredContent: page })).toMatchObject({ kind: 'listings', strategy: 'flip' });
    expect(listingsBodyOf(page as never).listings).toEqual([
      { listing_id: 'L1', address: '1 A St', status: 'active', price: 200_000, lat: 41.9, lon: -87.6, percentiles: { flip: 80 }, valuation: { arv_confidence: 70 } },
      { listing_id: 'L3', address: '3 C St', status: 'active', price: 150_000, lat: 41.8, lon: -87.7, percentiles: null, valuation: { arv_confidence: null } },
    ]);
  });

  it('an error result is shown with its taxonomy code', () => {
    const text = JSON.stringify({ error: { code: 'unauthorized', message: 'a key is required' } });
    expect(sceneOfResult('get_comps', { isError: true, content: [{ type: 'text', text }] })).toEqual({ kind: 'error', tool: 'get_comps', message: 'unauthorized: a key is required' });
  });
});
