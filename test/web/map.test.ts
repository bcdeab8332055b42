// The open web map in a real browser (Debian's chromium via playwright-core) against the service over the small test
// corpus: GET / loads with no console error and nothing requested outside the service; the tract layer paints; the
// controller tools called through the official MCP SDK client drive the open page over /api/events (fly_to_location
// moves the view and the URL hash follows within 2 s; highlight_properties and update_map_filters change what is
// drawn); the page links to /model. The map's screenshot is saved as bench/results/screens/map.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { ROOT_DIR } from '../../src/config.js';
import type { ServiceHandle } from '../../src/server.js';
import { modernMcpClient } from '../mcp/support.js';
import { canvasPng, launchChromium, openMap, pixelShare, startMapService, viewOfHash, waitIdle, type PageLog } from './support.js';

const SCREENS = join(ROOT_DIR, 'bench', 'results', 'screens');
/** The style's background colour (#f4f4f0): a canvas showing only it drew no layer. */
const BACKGROUND: [number, number, number] = [0xf4, 0xf4, 0xf0];

let service: ServiceHandle;
let browser: Browser;
let page: Page;
let decoder: Page;
let log: PageLog;
let mcp: ModernClient;
type Listing = { listing_id: string; price: number; lat: number; lon: number };
let listings: Listing[];

beforeAll(async () => {
  service = await startMapService();
  browser = await launchChromium();
  decoder = await browser.newPage();
  ({ page, log } = await openMap(browser, `${service.url}/`));
  mcp = await modernMcpClient(service);
  listings = ((await (await fetch(`${service.url}/api/listings/chicago`)).json()) as { listings: Listing[] }).listings;
}, 300_000);
afterAll(async () => {
  await mcp?.close();
  await browser?.close();
  await service?.close();
});

/** Listing ids the map currently draws (rendered features of the listing layer, across tiles). */
const drawnListingIds = (p: Page): Promise<string[]> =>
  p.evaluate(() => {
    const m = (globalThis as unknown as { avmMap: { map: { queryRenderedFeatures(o: object): Array<{ properties: { listing_id: string } }> } } }).avmMap.map;
    return [...new Set(m.queryRenderedFeatures({ layers: ['listings'] }).map((f) => f.properties.listing_id))].sort();
  });

describe('GET / (the open web map)', () => {
  it('is served under a same-origin-only policy, loads with no console error and requests nothing outside the service', async () => {
    const res = await fetch(`${service.url}/`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const d of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "worker-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) expect(csp).toContain(d);
    expect(log.errors).toEqual([]);
    const origin = new URL(service.url).origin;
    const outside = log.requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'));
    expect(outside).toEqual([]);
    // What it did load: the bundle, MapLibre's worker from the package, the layers and the stream.
    for (const path of ['/assets/map.js', '/assets/map.css', '/assets/maplibre-gl-worker.mjs', '/api/geo/tracts', '/api/geo/neighborhoods', '/api/geo/townships', '/api/listings/chicago', '/api/events']) {
      expect(log.requests.some((u) => new URL(u).pathname === path), path).toBe(true);
    }
  });

  it('paints the tract layer (the canvas is not blank) and repaints when another tract signal is chosen', async () => {
    const before = await canvasPng(page);
    mkdirSync(SCREENS, { recursive: true });
    writeFileSync(join(SCREENS, 'map.png'), await page.screenshot());
    expect(await pixelShare(decoder, before, { rgb: BACKGROUND })).toBeGreaterThan(0.1);
    await page.selectOption('select[name="tract-signal"]', 'effective_tax_rate');
    await waitIdle(page);
    expect(await pixelShare(decoder, await canvasPng(page), { b: before })).toBeGreaterThan(0.01);
    await page.selectOption('select[name="tract-signal"]', 'flip_score');
  });

  it('draws every active listing; unscored rows are drawn, not dropped', async () => {
    const positioned = listings.filter((l) => typeof l.lat === 'number' && typeof l.lon === 'number');
    expect(positioned.length).toBeGreaterThan(10);
    expect(await drawnListingIds(page)).toEqual(positioned.map((l) => l.listing_id).sort());
  });

  it('moves the view when fly_to_location is called through the MCP SDK client: the URL hash reaches it within 2 s', async () => {
    const target = { lat: 41.8781, lon: -87.6298, zoom: 12.5 };
    const t0 = Date.now();
    await mcp.callTool({ name: 'fly_to_location', arguments: target });
    await page.waitForFunction((t) => {
      const m = /^#([\d.]+)\/(-?[\d.]+)\/(-?[\d.]+)/.exec((globalThis as unknown as { location: { hash: string } }).location.hash);
      return m !== null && Math.abs(Number(m[1]) - t.zoom) < 0.01 && Math.abs(Number(m[2]) - t.lat) < 0.001 && Math.abs(Number(m[3]) - t.lon) < 0.001;
    }, target, { timeout: 2000, polling: 50 });
    const elapsedMs = Date.now() - t0;
    expect(elapsedMs).toBeLessThan(2000);
    const view = viewOfHash(await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash))!;
    expect(view.zoom).toBeCloseTo(target.zoom, 1);
    await page.screenshot({ path: join(SCREENS, 'map-fly-to.png') });
  });

  it('marks the listings highlight_properties names (feature state and pixels change)', async () => {
    const inView = await drawnListingIds(page);
    expect(inView.length).toBeGreaterThan(0);
    const ids = inView.slice(0, 2);
    await waitIdle(page);
    const before = await canvasPng(page);
    await mcp.callTool({ name: 'highlight_properties', arguments: { ids } });
    await page.waitForFunction((want) => {
      const m = (globalThis as unknown as { avmMap: { map: { getFeatureState(f: object): { highlighted?: boolean } } } }).avmMap.map;
      return want.every((id) => m.getFeatureState({ source: 'listings', id }).highlighted === true);
    }, ids, { timeout: 5000 });
    await waitIdle(page);
    expect(await pixelShare(decoder, await canvasPng(page), { b: before })).toBeGreaterThan(0);
  });

  it('filters the listing layer when update_map_filters is called (max_price, min_percentile, statuses)', async () => {
    await page.evaluate(() => (globalThis as unknown as { avmMap: { flyTo(a: number, b: number, z: number): void } }).avmMap.flyTo(41.83, -87.75, 9));
    await page.waitForFunction(() => /^#9\//.test((globalThis as unknown as { location: { hash: string } }).location.hash), undefined, { timeout: 5000 });
    await waitIdle(page);
    const all = await drawnListingIds(page);
    const prices = listings.filter((l) => all.includes(l.listing_id)).map((l) => l.price).sort((a, b) => a - b);
    const maxPrice = prices[Math.floor(prices.length / 2)];
    const cheap = listings.filter((l) => all.includes(l.listing_id) && l.price <= maxPrice).map((l) => l.listing_id).sort();
    expect(cheap.length).toBeGreaterThan(0);
    expect(cheap.length).toBeLessThan(all.length);

    const filtersApplied = async (args: Record<string, unknown>, expected: string[]): Promise<void> => {
      await mcp.callTool({ name: 'update_map_filters', arguments: args });
      await page.waitForFunction((n) => {
        const m = (globalThis as unknown as { avmMap: { map: { queryRenderedFeatures(o: object): Array<{ properties: { listing_id: string } }> } } }).avmMap.map;
        return new Set(m.queryRenderedFeatures({ layers: ['listings'] }).map((f) => f.properties.listing_id)).size === n;
      }, expected.length, { timeout: 5000 }).catch(async (e: Error) => {
        throw new Error(`${e.message}; filters ${JSON.stringify(await page.evaluate(() => (globalThis as unknown as { avmMap: { filters(): unknown } }).avmMap.filters()))}, drawn ${(await drawnListingIds(page)).length}, want ${expected.length}`);
      });
      expect(await drawnListingIds(page)).toEqual(expected);
    };
    await filtersApplied({ max_price: maxPrice }, cheap);
    await filtersApplied({ statuses: ['pending'] }, []); // every listing served is active
    await filtersApplied({ statuses: ['active'], max_price: 1e12 }, all);
    // The small corpus values no listing as a point: every row is unscored, so a minimum percentile leaves none.
    await filtersApplied({ min_percentile: 0 }, []);
  });

  it('links to /model, which the service serves', async () => {
    const href = await page.getAttribute('#model-link', 'href');
    expect(href).toBe('/model');
    const res = await fetch(new URL(href!, service.url));
    expect(res.status).toBe(200);
  });
});
