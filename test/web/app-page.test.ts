// The MCP App page in Debian's chromium (playwright-core), hosted by the extension's AppBridge in a sandboxed iframe
// (test/web/browser/app-host-harness.ts): a real get_comps result from the running service draws the subject on the map
// (canvas pixels of the subject colour) and the evidence with the disclosure verbatim; a fly_to_location call moves
// the view; a search_investment_inventory call the page makes goes through the host. No request leaves the page.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../scripts/build-app.mjs';
import { MAP_APP_URI } from '../../src/mcp/app/map-app.js';
import type { ServiceHandle } from '../../src/server.js';
import { bearer, mintKey, modernMcpClient, startDoors } from '../mcp/support.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENS = join(import.meta.dirname, '..', '..', 'bench', 'results', 'screens');
type Client = Awaited<ReturnType<typeof modernMcpClient>>;

let service: ServiceHandle;
let client: Client;
let browser: Browser;
let html: string;
let hostJs: string;
let probeJs: string;

beforeAll(async () => {
  await buildApp();
  service = await startDoors();
  client = await modernMcpClient(service, bearer((await mintKey(service, ['read', 'underwrite'])).token));
  const read = await client.readResource({ uri: MAP_APP_URI });
  html = (read.contents[0] as { text: string }).text;
  [hostJs, probeJs] = await Promise.all(['app-host-harness.ts', 'app-probes.ts'].map(browserBundle));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] });
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

/** A host page with the app for one tool call; every request and console error is recorded. */
async function host(call: { name: string; arguments: Record<string, unknown> }): Promise<{ page: Page; app: Frame; requests: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.exposeFunction('hostCallTool', (c: { name: string; arguments: Record<string, unknown> }) => client.callTool(c));
  await page.setContent(`<!doctype html><html><body><script>${hostJs.replace(/<\/script/gi, '<\\/script')}</script></body></html>`);
  const result = await client.callTool(call);
  await page.evaluate(([h, c, r]) => (globalThis as unknown as HostWindow).startHost(h, c, r), [html, call, result] as const);
  const app = page.frames().find((f) => f !== page.mainFrame())!;
  return { page, app, requests, errors };
}

/** Pixels of the map canvas near an RGB colour, counted by the probe bundle injected into the app frame. */
async function countColour(app: Frame, rgb: [number, number, number], tol = 24): Promise<number> {
  if (!(await app.evaluate('typeof window.countColour === "function"'))) await app.addScriptTag({ content: probeJs });
  return (await app.evaluate(`window.countColour(${JSON.stringify(rgb)}, ${tol})`)) as number;
}

const outside = (urls: string[]): string[] => urls.filter((u) => !/^(data|blob|about):/.test(u));

describe.skipIf(!existsSync(CHROMIUM))('MCP App page in chromium', () => {
  it('draws a real get_comps result: the subject on the map, the ladder and the disclosure in the panel', async () => {
    const { page, app, requests, errors } = await host({ name: 'get_comps', arguments: { lat: 41.88, lon: -87.7 } });
    try {
      await app.waitForSelector('#panel .disclosure', { timeout: 15_000 });
      const panel = await app.locator('#panel').innerText();
      expect(panel).toContain('Automated valuation model output, not an appraisal.');
      const comps = (await client.callTool({ name: 'get_comps', arguments: { lat: 41.88, lon: -87.7 } })).structuredContent as { outcome: string | null; value: number | null };
      // The ladder: a written value only for a point; a range shows its ends and no midpoint.
      if (comps.outcome === 'point') expect(panel).toMatch(/Value \$/);
      else expect(panel).not.toMatch(/Value \$/);
      await expect.poll(() => countColour(app, [0xe7, 0x6f, 0x51]), { timeout: 10_000 }).toBeGreaterThan(50);
      expect(outside(requests)).toEqual([]);
      expect(errors).toEqual([]);
      mkdirSync(SCREENS, { recursive: true });
      await page.locator('iframe').screenshot({ path: join(SCREENS, 'mcp-app-get-comps.png') });
    } finally {
      await page.close();
    }
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
