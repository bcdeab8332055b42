// The open web map's interactions beyond the controller tools: a click on a listing asks the REST door for that
// listing's valuation (and a click elsewhere for the point's) and opens the evidence panel; an owner's key, pasted
// once and kept in the browser, shows the owner's favourites (also as a map layer) and notes, again after a reload. A
// page opened on a shared view is not moved by controller records older than itself; a fly_to by address is resolved
// through the REST door.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, mintKey, modernMcpClient } from '../mcp/support.js';
import { launchChromium, openMap, startMapService, viewOfHash, type PageLog } from './support.js';

type Handle = { avmMap: { map: { project(p: [number, number]): { x: number; y: number }; queryRenderedFeatures(o: object): Array<{ properties: { listing_id: string }; geometry: { coordinates: [number, number] } }> } } };

let service: ServiceHandle;
let browser: Browser;
let page: Page;
let log: PageLog;

beforeAll(async () => {
  service = await startMapService();
  browser = await launchChromium();
  ({ page, log } = await openMap(browser, `${service.url}/`));
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** Screen position (page coordinates) of a listing the map draws clear of the controls (left) and zoom buttons (right). */
async function listingOnScreen(p: Page): Promise<{ id: string; x: number; y: number }> {
  const box = (await p.locator('#map').boundingBox())!;
  const spots = await p.evaluate(() => {
    const m = (globalThis as unknown as Handle).avmMap.map;
    return m.queryRenderedFeatures({ layers: ['listings'] }).map((f) => ({ id: f.properties.listing_id, ...m.project(f.geometry.coordinates) }));
  });
  const spot = spots.find((s) => s.x > 320 && s.x < box.width - 80 && s.y > 40 && s.y < box.height - 40);
  if (!spot) throw new Error('no listing drawn clear of the controls');
  return { id: spot.id, x: box.x + spot.x, y: box.y + spot.y };
}

describe('the map page', () => {
  it('opens the evidence panel with the REST answer for a clicked listing, and for a clicked point', async () => {
    const spot = await listingOnScreen(page);
    const [req] = await Promise.all([page.waitForRequest((r) => new URL(r.url()).pathname === '/api/property'), page.mouse.click(spot.x, spot.y)]);
    expect(new URL(req.url()).searchParams.get('property_id')).toBe(spot.id);
    await page.waitForFunction(() => !(globalThis as unknown as { document: { getElementById(id: string): { hidden: boolean; textContent: string } } }).document.getElementById('panel').hidden);
    expect((await req.response())!.status()).toBe(200);

    const box = (await page.locator('#map').boundingBox())!;
    const [pointReq] = await Promise.all([page.waitForRequest((r) => new URL(r.url()).pathname === '/api/property'), page.mouse.click(box.x + 330, box.y + box.height - 45)]);
    const q = new URL(pointReq.url()).searchParams;
    expect(q.get('property_id')).toBeNull();
    expect(Number.isFinite(Number(q.get('lat'))) && Number.isFinite(Number(q.get('lon')))).toBe(true);
    expect(log.errors).toEqual([]);
  });

  it('shows the owner\'s favourites and notes once a key is pasted, and keeps the key across a reload', async () => {
    const key = await mintKey(service, ['read', 'write-state']);
    const spot = await listingOnScreen(page);
    const mcp = await modernMcpClient(service, bearer(key.token));
    try {
      await mcp.callTool({ name: 'save_favorite_property', arguments: { property_id: spot.id } });
      await mcp.callTool({ name: 'add_note', arguments: { property_id: spot.id, body: 'roof looks new in the photos' } });
    } finally {
      await mcp.close();
    }
    await page.fill('input[name="key"]', key.token);
    await page.press('input[name="key"]', 'Enter');
    await page.waitForSelector('#owner-state >> text=favorites (1)');
    expect(await page.textContent('#owner-state')).toContain('roof looks new in the photos');
    const favouritesDrawn = (p: Page) => p.waitForFunction((id) => (globalThis as unknown as Handle).avmMap.map.queryRenderedFeatures({ layers: ['favorites'] }).some((f) => f.properties.listing_id === id), spot.id, { timeout: 5000 });
    await favouritesDrawn(page);

    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('#owner-state >> text=favorites (1)');
    await favouritesDrawn(page);
    expect(log.errors).toEqual([]);
  });

  it('keeps a shared view against older fly_to records, and flies to an address the REST door resolves', async () => {
    const mcp = await modernMcpClient(service);
    try {
      await mcp.callTool({ name: 'fly_to_location', arguments: { lat: 42.25, lon: -88.05, zoom: 11 } }); // before the page
      const { page: shared, log: sharedLog } = await openMap(browser, `${service.url}/#10/41.8/-87.7`);
      await shared.waitForFunction(() => (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }).document.getElementById('stream-status').textContent === 'live: open');
      await shared.waitForTimeout(1500); // the replay has arrived by now; a fly_to applied would have moved the view
      expect(viewOfHash(await shared.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash))).toEqual({ zoom: 10, lat: 41.8, lon: -87.7 });

      const listing = ((await (await fetch(`${service.url}/api/listings/chicago`)).json()) as { listings: Array<{ address: string; lat: number; lon: number }> }).listings[0];
      await mcp.callTool({ name: 'fly_to_location', arguments: { address: listing.address, zoom: 14 } });
      await shared.waitForFunction((t) => {
        const m = /^#([\d.]+)\/(-?[\d.]+)\/(-?[\d.]+)/.exec((globalThis as unknown as { location: { hash: string } }).location.hash);
        return m !== null && Number(m[1]) === 14 && Math.abs(Number(m[2]) - t.lat) < 0.001 && Math.abs(Number(m[3]) - t.lon) < 0.001;
      }, listing, { timeout: 5000 });
      expect(sharedLog.errors).toEqual([]);
      await shared.close();
    } finally {
      await mcp.close();
    }
  });
});
