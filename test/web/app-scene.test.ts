// The MCP App's reading of tool calls (src/web/client/app-scene.ts): which tool a result came from, what the
// controller tools' arguments ask of the map, and that a missing location is left off the map (never put at 0,0).
import { describe, expect, it } from 'vitest';
import { evidenceOf, inventoryArgsFor, listingsOf, sceneOfControllerInput, sceneOfResult, toolOfResult } from '../../src/web/client/app-scene.js';

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

  it('draws only located points: comps without lat/lon and listings without coordinates stay off the map', () => {
    const comps = { subject: { lat: 41.88, lon: -87.7 }, comps_used: [{ pin: 'A', price: 1, lat: 41.89, lon: -87.71 }, { pin: 'B', price: 2 }], comps_rejected: [{ pin: 'C', reason: 'gla_band', lat: 0 }] };
    expect(evidenceOf('get_comps', comps)).toEqual({ subject: { lat: 41.88, lon: -87.7 }, accepted: [{ lat: 41.89, lon: -87.71, pin: 'A', label: 'A · $1' }], rejected: [] });
    expect(evidenceOf('deep_underwrite_asset', { valuation: null, offers: null })).toEqual({ subject: null, accepted: [], rejected: [] });
    expect(listingsOf({ results: [{ listing_id: 'L1', lat: 41.9, lon: -87.6, percentile: null }, { listing_id: 'L2' }] })).toEqual([
      { lat: 41.9, lon: -87.6, id: 'L1', price: null, percentile: null, confidence: null, address: null },
    ]);
  });

  it('an error result is shown with its taxonomy code', () => {
    const text = JSON.stringify({ error: { code: 'unauthorized', message: 'a key is required' } });
    expect(sceneOfResult('get_comps', { isError: true, content: [{ type: 'text', text }] })).toEqual({ kind: 'error', tool: 'get_comps', message: 'unauthorized: a key is required' });
  });
});
