// The evidence panel on the open web map itself, over the served corpus (hedonic fitted, calibrated), whose listings
// answer points and ranges: clicking a listing whose REST answer is a range shows low–high and no midpoint, clicking
// one whose answer is a point shows its value and pro-forma, each with the answer's disclosure verbatim, and the comps
// drawn on the map. Screenshots of the panel on the map are saved under bench/results/screens/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { usd, usdRange } from '../../src/web/client/evidence-format.js';
import { servedCorpusDir } from '../support/served-corpus.js';
import { onOneUtcDay } from '../support/utc-day.js';
import type { Json } from './evidence-answers.js';
import { launchChromium, openMap, SCREENS_DIR, startMapService, waitIdle, type PageLog } from './support.js';

type Listing = { listing_id: string; lat: number; lon: number };
type Found = { listing: Listing; body: Json };
type MapHandle = { avmMap: { map: { jumpTo(o: object): void; project(p: [number, number]): { x: number; y: number }; queryRenderedFeatures(o: object): Array<{ properties: { listing_id: string }; geometry: { coordinates: [number, number] } }>; getSource(id: string): { _data?: unknown } | undefined } } };

let service: ServiceHandle;
let browser: Browser;
let page: Page;
let log: PageLog;
let byOutcome = new Map<string, Found>();
/** The UTC day byOutcome's answers are of (valuations are as of today). */
let scanDay = '';

const outcomeOf = (b: Json): string => b.investor?.valuation?.display?.outcome ?? 'refusal';

/** A listing answered with a range and one with a point, as answered on `day`. */
async function scan(day: string): Promise<void> {
  const found = new Map<string, Found>();
  const listings = ((await (await fetch(`${service.url}/api/listings/chicago`)).json()) as { listings: Listing[] }).listings;
  for (const listing of listings) {
    if (found.has('range') && found.has('point')) break;
    const res = await fetch(`${service.url}/api/property?property_id=${encodeURIComponent(listing.listing_id)}`);
    const body = (await res.json()) as Json;
    const outcome = outcomeOf(body);
    if (res.status === 200 && !found.has(outcome)) found.set(outcome, { listing, body });
  }
  [byOutcome, scanDay] = [found, day];
}

/** Clicks the listing of `outcome` with the answer and the click of one UTC day (a midnight between them: scan again). */
const clickOnOneDay = (outcome: string): Promise<{ found: Found | undefined; text: string }> =>
  onOneUtcDay(async (day) => {
    if (day !== scanDay) await scan(day);
    const found = byOutcome.get(outcome);
    return { found, text: found ? await clickListing(page, found.listing) : '' };
  });

beforeAll(async () => {
  service = await startMapService(await servedCorpusDir());
  await onOneUtcDay(scan);
  browser = await launchChromium();
  ({ page, log } = await openMap(browser, `${service.url}/`));
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** Centres the map on the listing at street zoom, clicks its circle, and returns the panel's text once it has rendered. */
async function clickListing(p: Page, l: Listing): Promise<string> {
  await p.evaluate(({ lon, lat }) => (globalThis as unknown as MapHandle).avmMap.map.jumpTo({ center: [lon, lat], zoom: 16 }), l);
  await waitIdle(p);
  const box = (await p.locator('#map').boundingBox())!;
  const spot = await p.evaluate((id) => {
    const m = (globalThis as unknown as MapHandle).avmMap.map;
    const f = m.queryRenderedFeatures({ layers: ['listings'] }).find((x) => x.properties.listing_id === id);
    return f ? m.project(f.geometry.coordinates) : null;
  }, l.listing_id);
  expect(spot, `listing ${l.listing_id} drawn`).not.toBeNull();
  const [res] = await Promise.all([
    p.waitForResponse((r) => new URL(r.url()).pathname === '/api/property' && new URL(r.url()).searchParams.get('property_id') === l.listing_id),
    p.mouse.click(box.x + spot!.x, box.y + spot!.y),
  ]);
  expect(res.status()).toBe(200);
  await p.waitForSelector('#panel .evidence-panel');
  return (await p.textContent('#panel')) ?? '';
}

describe('the evidence panel on the map', () => {
  it('a listing answered with a range: low–high, no midpoint, no pro-forma, the disclosure verbatim, comps drawn', async () => {
    const { found, text } = await clickOnOneDay('range');
    expect(found, 'a listing of the served corpus answered with a Tier-1 range').toBeDefined();
    const { body } = found!;
    const v = body.investor.valuation;
    expect(text).toContain(usdRange(v.arv.low, v.arv.high));
    const mid = (v.arv.low + v.arv.high) / 2;
    for (const c of [usd(mid), String(mid), `$${mid.toLocaleString('en-US')}`]) expect(text, `midpoint ${c} shown`).not.toContain(c);
    expect(await page.locator('#panel .evidence-proforma').count()).toBe(0);
    expect(text).toContain(body.disclosure);
    // Every block that shows a number is followed by the disclosure (the panel's rule, here on the page).
    const blocks = await page.$$eval('#panel .evidence-block', (els) => els.map((e) => e.lastElementChild?.className ?? ''));
    expect(blocks.length).toBeGreaterThan(0);
    for (const last of blocks) expect(last).toContain('disclosure');
    // The comps the answer accepted are on the map's evidence layer, at their own coordinates.
    const comps = (v.arv.comps ?? []) as Json[];
    expect(comps.length).toBeGreaterThan(0);
    const drawn = await page.evaluate(() => (globalThis as unknown as MapHandle).avmMap.map.queryRenderedFeatures({}).map((f) => (f as unknown as { layer: { id: string } }).layer.id));
    expect(drawn.some((id) => /evidence|comp/.test(id)), `evidence layers drawn: ${[...new Set(drawn)].join(', ')}`).toBe(true);
    mkdirSync(SCREENS_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENS_DIR, 'panel-range.png') });
  });

  it('a listing answered with a point: its value and the pro-forma, with the disclosure', async () => {
    const { found, text } = await clickOnOneDay('point');
    if (!found) return expect.soft(byOutcome.has('point'), 'the served corpus has no point-valued listing: nothing to click').toBe(false);
    const { body } = found;
    const v = body.investor.valuation;
    expect(text).toContain(usd(v.arv.value));
    expect(await page.locator('#panel .evidence-proforma').count()).toBe(1);
    expect(text).toContain(body.disclosure);
    await page.screenshot({ path: join(SCREENS_DIR, 'panel-point.png') });
  });

  it('the map links to /model, which links back; nothing on the map page logged an error', async () => {
    await Promise.all([page.waitForURL(`${service.url}/model`), page.click('a[href="/model"]')]);
    expect(await page.getAttribute('a[href="/"]', 'href')).toBe('/');
    expect(log.errors).toEqual([]);
  });
});
