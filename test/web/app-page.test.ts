// The MCP App page in Debian's chromium (playwright-core), hosted by the extension's AppBridge in a sandboxed iframe
// (test/web/browser/app-host-harness.ts): a real get_comps result from the running service draws the subject on the map
// (canvas pixels of the subject colour) and the evidence through the open map's panel with the disclosure verbatim; a
// Tier-1 range's comps are drawn on the map and its panel shows no midpoint; a deep_underwrite_asset point shows its
// value, comps and pro-forma with the disclosure under each block; a fly_to_location call moves the view; a
// search_investment_inventory call the page makes goes through the host. No request leaves the page, no console error.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../scripts/build-app.mjs';
import { MAP_APP_URI } from '../../src/mcp/app/map-app.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { usd, usdRange } from '../../src/web/client/evidence-format.js';
import { bearer, mintKey, modernMcpClient, roomyLimiter, startDoors } from '../mcp/support.js';
import { testConfig } from '../support/corpus.js';
import { servedCorpusDir } from '../support/served-corpus.js';
import { answersByOutcome } from './evidence-answers.js';
import { CHROMIUM, launchChromium, type DecodeGlobals } from './support.js';

const SCREENS = join(import.meta.dirname, '..', '..', 'bench', 'results', 'screens');
type Client = Awaited<ReturnType<typeof modernMcpClient>>;

let service: ServiceHandle;
let client: Client;
let browser: Browser;
let html: string;
let hostJs: string;

beforeAll(async () => {
  await buildApp();
  service = await startDoors();
  client = await modernMcpClient(service, bearer((await mintKey(service, ['read', 'underwrite'])).token));
  const read = await client.readResource({ uri: MAP_APP_URI });
  html = (read.contents[0] as { text: string }).text;
  hostJs = await browserBundle('app-host-harness.ts');
  browser = await launchChromium(['--use-angle=swiftshader', '--enable-unsafe-swiftshader']);
});
afterAll(async () => {
  await browser?.close();
  await client?.close();
  await service?.close();
});

/** A browser-side helper of this test (test/web/browser/, DOM code) as one IIFE script. */
async function browserBundle(file: string): Promise<string> {
  const built = await esbuild.build({ entryPoints: [join(import.meta.dirname, 'browser', file)], bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'warning' });
  return built.outputFiles[0].text;
}

type HostWindow = { startHost(html: string, call: unknown, result: unknown): Promise<void> };

/** A host page with the app for one tool call (through `mcp`, default the small corpus's client); every request and console error is recorded. */
async function host(call: { name: string; arguments: Record<string, unknown> }, mcp: Client = client): Promise<{ page: Page; app: Frame; requests: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.exposeFunction('hostCallTool', (c: { name: string; arguments: Record<string, unknown> }) => mcp.callTool(c));
  await page.setContent(`<!doctype html><html><body><script>${hostJs.replace(/<\/script/gi, '<\\/script')}</script></body></html>`);
  const result = await mcp.callTool(call);
  await page.evaluate(([h, c, r]) => (globalThis as unknown as HostWindow).startHost(h, c, r), [html, call, result] as const);
  const app = page.frames().find((f) => f !== page.mainFrame())!;
  return { page, app, requests, errors };
}

/**
 * Pixels of the map near an RGB colour, in a screenshot of the app's map canvas (what is on screen: the map view does
 * not keep its WebGL drawing buffer, so reading the canvas back would see a cleared, transparent one), decoded and
 * counted in the host page.
 */
async function countColour(page: Page, app: Frame, rgb: [number, number, number], tol = 24): Promise<number> {
  const png = (await app.locator('canvas.maplibregl-canvas').screenshot()).toString('base64');
  return page.evaluate(async ({ png, rgb, tol }) => {
    const g = globalThis as unknown as DecodeGlobals;
    const bmp = await g.createImageBitmap(new Blob([Uint8Array.from(g.atob(png), (c) => c.charCodeAt(0))], { type: 'image/png' }));
    const ctx = new g.OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const px = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - rgb[0]) <= tol && Math.abs(px[i + 1] - rgb[1]) <= tol && Math.abs(px[i + 2] - rgb[2]) <= tol) n++;
    return n;
  }, { png, rgb, tol });
}

const outside = (urls: string[]): string[] => urls.filter((u) => !/^(data|blob|about):/.test(u));

/** The evidence layer's colours (src/web/client/map-layers.ts): subject black, accepted green, rejected red. */
const SUBJECT_RGB: [number, number, number] = [0, 0, 0];
const ACCEPTED_RGB: [number, number, number] = [0x1a, 0x96, 0x41];
const REJECTED_RGB: [number, number, number] = [0xd7, 0x19, 0x1c];

/** Whether `p` lies in the lat/lon bounding box of `pts` (the least a view framing `pts` shows). */
function insideBox(p: { lat: number; lon: number }, pts: ReadonlyArray<{ lat: number; lon: number }>): boolean {
  const lats = pts.map((q) => q.lat), lons = pts.map((q) => q.lon);
  return p.lat >= Math.min(...lats) && p.lat <= Math.max(...lats) && p.lon >= Math.min(...lons) && p.lon <= Math.max(...lons);
}

/** Every panel block that shows a number ends with the disclosure verbatim (suppression and refusal blocks show none). */
async function expectDisclosureUnderEveryNumberBlock(app: Frame, disclosure: string): Promise<number> {
  const blocks = await app.$$eval('#panel section.evidence-block', (els) => els.map((e) => ({ cls: e.className, last: e.lastElementChild?.className === 'disclosure' ? e.lastElementChild.textContent : null })));
  const numbered = blocks.filter((b) => !/outcome-suppressed|evidence-refusal/.test(b.cls));
  for (const b of numbered) expect(b).toEqual({ cls: b.cls, last: disclosure });
  return numbered.length;
}

describe.skipIf(!existsSync(CHROMIUM))('MCP App page in chromium', () => {
  it('draws a real get_comps result: the subject on the map, the ladder and the disclosure in the panel', async () => {
    const { page, app, requests, errors } = await host({ name: 'get_comps', arguments: { lat: 41.88, lon: -87.7 } });
    try {
      await app.waitForSelector('#panel .disclosure', { timeout: 15_000 });
      const panel = await app.locator('#panel').innerText();
      expect(panel).toContain('Automated valuation model output, not an appraisal.');
      const comps = (await client.callTool({ name: 'get_comps', arguments: { lat: 41.88, lon: -87.7 } })).structuredContent as { outcome: string | null; value: number | null; disclosure: string };
      // The ladder: a point block only for a point (the open map's panel renders it: evidence-panel.ts).
      expect(await app.locator('#panel .outcome-point').count()).toBe(comps.outcome === 'point' ? 1 : 0);
      expect(await expectDisclosureUnderEveryNumberBlock(app, comps.disclosure)).toBeGreaterThanOrEqual(comps.outcome === 'suppressed' ? 0 : 1);
      await expect.poll(() => countColour(page, app, SUBJECT_RGB), { timeout: 10_000 }).toBeGreaterThan(50);
      // The map view starts without the REST layers (tracts, outlines, listing feed): no error, they are just absent.
      expect(await app.locator('#map').getAttribute('data-absent-layers')).toBe('/api/geo/tracts /api/geo/neighborhoods /api/geo/townships /api/listings/chicago');
      expect(outside(requests)).toEqual([]);
      expect(errors).toEqual([]);
      mkdirSync(SCREENS, { recursive: true });
      await page.locator('iframe').screenshot({ path: join(SCREENS, 'mcp-app-get-comps.png') });
    } finally {
      await page.close();
    }
  });

  describe('on the served corpus (every ladder outcome)', () => {
    let served: ServiceHandle;
    let mcp: Client;
    /** Tool arguments of the first parcel whose /api/property answer has each outcome. */
    const argsOf = new Map<string, { lat: number; lon: number; units: number }>();
    beforeAll(async () => {
      const dir = await servedCorpusDir();
      served = await startService(testConfig(dir), { installSignalHandlers: false, limiter: roomyLimiter() });
      mcp = await modernMcpClient(served, bearer((await mintKey(served, ['read', 'underwrite'])).token));
      for (const [outcome, found] of await answersByOutcome(served, dir, ['range', 'point'])) {
        const q = new URLSearchParams(found.query);
        argsOf.set(outcome, { lat: Number(q.get('lat')), lon: Number(q.get('lon')), units: Number(q.get('units')) });
      }
    }, 180_000);
    afterAll(async () => {
      await mcp?.close();
      await served?.close();
    });
    const args = (outcome: string): { lat: number; lon: number; units: number } => {
      const a = argsOf.get(outcome);
      if (!a) throw new Error(`the served corpus has no ${outcome} answer`);
      return a;
    };

    it('a Tier-1 range from get_comps: its comps drawn on the map, the panel shows low–high and no midpoint', async () => {
      const answered = await mcp.callTool({ name: 'get_comps', arguments: args('range') });
      expect(answered.isError ?? false, JSON.stringify(answered.content).slice(0, 300)).toBe(false);
      const comps = answered.structuredContent as {
        outcome: string; value: number | null; interval: { low: number; high: number }; disclosure: string;
        comps_used: Array<{ pin: string; lat: number; lon: number }>; comps_rejected: Array<{ pin: string; lat: number; lon: number }>;
      };
      expect(comps.outcome).toBe('range');
      expect(comps.value).toBeNull();
      expect(comps.comps_used.length).toBeGreaterThan(0);
      const { page, app, requests, errors } = await host({ name: 'get_comps', arguments: args('range') }, mcp);
      try {
        await app.waitForSelector('#panel .outcome-range', { timeout: 15_000 });
        const { low, high } = comps.interval;
        expect(await app.locator('#panel .outcome-range .headline').innerText()).toBe(usdRange(low, high));
        const panel = await app.locator('#panel').innerText();
        const mid = (low + high) / 2;
        for (const m of [usd(mid), `$${mid.toLocaleString('en-US')}`, String(mid)]) expect(panel, `midpoint ${m} shown`).not.toContain(m);
        expect(await app.locator('#panel .outcome-point').count()).toBe(0);
        expect(await app.locator('#panel .evidence-proforma').count()).toBe(0);
        // Every accepted comp is listed with its adjustments, and drawn: green pixels for about a circle per comp.
        expect(await app.$$eval('#panel .comps-table tbody tr td:first-child', (tds) => tds.map((td) => td.textContent))).toEqual(comps.comps_used.map((c) => c.pin));
        await expect.poll(() => countColour(page, app, ACCEPTED_RGB), { timeout: 10_000 }).toBeGreaterThan(40 * comps.comps_used.length);
        // Rejected candidates are drawn too, but the view frames the subject and the accepted comps only: red pixels are
        // owed when a rejected candidate lies inside that frame's box (the padding only widens it).
        if (comps.comps_rejected.some((c) => insideBox(c, [args('range'), ...comps.comps_used]))) expect(await countColour(page, app, REJECTED_RGB)).toBeGreaterThan(0);
        expect(await countColour(page, app, SUBJECT_RGB)).toBeGreaterThan(50);
        expect(await expectDisclosureUnderEveryNumberBlock(app, comps.disclosure)).toBeGreaterThanOrEqual(2); // value, comps
        expect(outside(requests)).toEqual([]);
        expect(errors).toEqual([]);
        mkdirSync(SCREENS, { recursive: true });
        await page.locator('iframe').screenshot({ path: join(SCREENS, 'mcp-app-range-comps.png') });
      } finally {
        await page.close();
      }
    }, 60_000);

    it('a point from deep_underwrite_asset: the value, its comps on the map, the pro-forma, the disclosure under each block', async () => {
      const call = { name: 'deep_underwrite_asset', arguments: { ...args('point'), strategy: 'flip' } };
      const answer = (await mcp.callTool(call)).structuredContent as {
        disclosure: string; valuation: { arv: { value: number; comps: Array<{ pin: string }> }; display: { outcome: string; point_actionable: boolean } };
      };
      const v = answer.valuation;
      expect(v.display.outcome).toBe('point');
      const { page, app, requests, errors } = await host(call, mcp);
      try {
        await app.waitForSelector('#panel .outcome-point', { timeout: 15_000 });
        expect(await app.locator('#panel .outcome-point .headline').innerText()).toBe(usd(v.arv.value));
        expect(await app.$$eval('#panel .comps-table tbody tr td:first-child', (tds) => tds.map((td) => td.textContent))).toEqual(v.arv.comps.map((c) => c.pin));
        // The pro-forma only when the ladder says the point is actionable (the same rule as on the open map).
        expect(await app.locator('#panel .evidence-proforma').count()).toBe(v.display.point_actionable ? 1 : 0);
        expect(await expectDisclosureUnderEveryNumberBlock(app, answer.disclosure)).toBeGreaterThanOrEqual(2);
        await expect.poll(() => countColour(page, app, ACCEPTED_RGB), { timeout: 10_000 }).toBeGreaterThan(40 * v.arv.comps.length);
        expect(outside(requests)).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  });

  it('fly_to_location moves the view; update_map_filters loads listings through the host', async () => {
    const fly = await host({ name: 'fly_to_location', arguments: { lat: 41.9, lon: -87.65, zoom: 13 } });
    try {
      await expect.poll(() => fly.app.locator('#panel').innerText(), { timeout: 10_000 }).toContain('Centred on 41.90000, -87.65000 at zoom 13');
      await expect.poll(() => fly.app.locator('#map').getAttribute('data-view'), { timeout: 5_000 }).toBe('41.90000,-87.65000,13.00');
      expect(outside(fly.requests)).toEqual([]);
      expect(fly.errors).toEqual([]);
    } finally {
      await fly.page.close();
    }
    const filters = await host({ name: 'update_map_filters', arguments: { strategy: 'flip', min_percentile: 10 } });
    try {
      await expect.poll(() => filters.app.locator('#panel').innerText(), { timeout: 10_000 }).toMatch(/\d+ listings drawn for \{"strategy":"flip","min_percentile":10\}/);
      expect(outside(filters.requests)).toEqual([]);
      expect(filters.errors).toEqual([]);
    } finally {
      await filters.page.close();
    }
  });
});
