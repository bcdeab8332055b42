// The map's consent banner in a real browser (issue 16 item 4): it appears once; Allow stores the choice and sends a
// page_view the operator's aggregate counts (GET /api/admin/analytics), a reload shows no banner, a filter change and
// an opened valuation (with its ladder outcome) are counted; No thanks sends
// nothing, now or after a reload; a browser with Global Privacy Control gets no banner and sends nothing.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, OPERATOR_SECRET } from '../mcp/support.js';
import { launchChromium, openMap, startMapService } from './support.js';

let service: ServiceHandle;
let browser: Browser;
beforeAll(async () => {
  service = await startMapService();
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

type Kinds = { page_view: number; map_filter_changed: number; valuation_opened: number };
async function counted(): Promise<Kinds & { events: number; outcomes: Record<string, number> }> {
  // days=2: a before/after pair a UTC midnight separates still counts every event of this file (all minutes old)
  const res = await fetch(`${service.url}/api/admin/analytics?days=2`, { headers: bearer(OPERATOR_SECRET) });
  const app = ((await res.json()) as { app: { events: number; by_kind: Kinds; valuation_outcomes: Record<string, number> } }).app;
  return { events: app.events, ...app.by_kind, outcomes: app.valuation_outcomes };
}

/** A listing the map draws clear of the controls, the banner's corner and the zoom buttons (page coordinates). */
async function listingOnScreen(p: Page): Promise<{ x: number; y: number }> {
  const box = (await p.locator('#map').boundingBox())!;
  const spots = await p.evaluate(() => {
    const m = (globalThis as unknown as { avmMap: { map: { queryRenderedFeatures(o: object): Array<{ geometry: { coordinates: [number, number] } }>; project(c: [number, number]): { x: number; y: number } } } }).avmMap.map;
    return m.queryRenderedFeatures({ layers: ['listings'] }).map((f) => m.project(f.geometry.coordinates));
  });
  const spot = spots.find((s) => s.x > 320 && s.x < box.width - 80 && s.y > 40 && s.y < box.height - 40);
  if (!spot) throw new Error('no listing drawn clear of the controls');
  return { x: box.x + spot.x, y: box.y + spot.y };
}

const analyticsPosts = (requests: string[]): number => requests.filter((u) => new URL(u).pathname === '/api/analytics/events').length;
const banner = (p: Page) => p.locator('#analytics-consent');
const ready = (p: Page): Promise<unknown> => p.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });

describe('the analytics consent banner', () => {
  it('appears once; Allow sends a page_view that the admin aggregate counts; after a reload no banner, the choice is kept', async () => {
    const before = await counted();
    const { page, log } = await openMap(browser, `${service.url}/`);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    expect(analyticsPosts(log.requests)).toBe(0); // nothing before the choice
    const [res] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analytics/events'), page.click('#analytics-consent button:text("Allow")')]);
    expect(res.status()).toBe(204);
    expect(await banner(page).count()).toBe(0);
    expect((await counted()).page_view).toBe(before.page_view + 1);

    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analytics/events'), page.reload()]);
    await ready(page);
    expect(await banner(page).count()).toBe(0);
    expect((await counted()).page_view).toBe(before.page_view + 2); // the reloaded page's own view
    await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analytics/events'), page.selectOption('select[name="strategy"]', 'flip')]);
    expect((await counted()).map_filter_changed).toBe(before.map_filter_changed + 1);

    // a click on a listing opens the evidence panel: valuation_opened with the outcome the REST answer carried
    const spot = await listingOnScreen(page);
    // Both waits are registered before the click: the event may be answered before this process looks again (load).
    const [answer] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/property'),
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analytics/events'),
      page.mouse.click(spot.x, spot.y),
    ]);
    const outcome = ((await answer.json()) as { investor: { valuation: { display: { outcome: string } } } }).investor.valuation.display.outcome;
    const after = await counted();
    expect(after.valuation_opened).toBe(before.valuation_opened + 1);
    expect(after.outcomes[outcome]).toBe(before.outcomes[outcome] + 1);
    expect(log.errors).toEqual([]);
    await page.close();
  });

  it('No thanks: nothing is sent, then or after a reload (no banner again)', async () => {
    const before = await counted();
    const { page, log } = await openMap(browser, `${service.url}/`);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    await page.click('#analytics-consent button:text("No thanks")');
    await page.selectOption('select[name="strategy"]', 'hold');
    await page.reload();
    await ready(page);
    expect(await banner(page).count()).toBe(0);
    await page.selectOption('select[name="tract-signal"]', 'effective_tax_rate');
    await page.waitForTimeout(300); // a send would start at once; give it time to show
    expect(analyticsPosts(log.requests)).toBe(0);
    expect(await counted()).toEqual(before);
    expect(log.errors).toEqual([]);
    await page.close();
  });

  it('a browser with Global Privacy Control gets no banner and sends nothing', async () => {
    const before = await counted();
    const page = await browser.newPage({ viewport: { width: 1000, height: 720 } });
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${service.url}/`);
    await ready(page);
    expect(await banner(page).count()).toBe(0);
    await page.selectOption('select[name="strategy"]', 'flip');
    await page.waitForTimeout(300);
    expect(analyticsPosts(requests)).toBe(0);
    expect(await counted()).toEqual(before);
    await page.close();
  });
});
