// Shared fixture of the browser tests: the client built (npm run build's own step), one service over the small test
// corpus with its listings run, and Debian's chromium driven by playwright-core. Chromium runs headless with its
// defaults: playwright passes --no-sandbox when the sandbox is off (its default), and headless chromium renders WebGL 2
// in software (SwiftShader) without extra flags on this machine. Screenshots are compared as decoded pixels in a blank
// page (no PNG library needed: the browser decodes its own screenshots).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from '../../scripts/build.mjs';
import { startService, type ServiceHandle } from '../../src/server.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';
import { OPERATOR_SECRET, roomyLimiter } from '../mcp/support.js';

export const CHROMIUM = '/usr/bin/chromium';

/** The service over `dataDir` (default: the small test corpus) after one listings run. */
export async function startMapService(dataDir?: string): Promise<ServiceHandle> {
  build(); // no-op when dist/ (dist/web included) is current
  const service = await startService(testConfig(dataDir ?? (await smallCorpusDir()), { WRITE_SECRET: OPERATOR_SECRET }), { installSignalHandlers: false, limiter: roomyLimiter() });
  // The listings the map draws: the listings job run once, as the operator would (POST /api/run-listings).
  const run = await fetch(`${service.url}/api/run-listings`, { method: 'POST', headers: { Authorization: `Bearer ${OPERATOR_SECRET}`, 'Content-Type': 'application/json' }, body: '{}' });
  if (!run.ok) throw new Error(`run-listings answered ${run.status}: ${await run.text()}`);
  return service;
}

/**
 * Debian's chromium, headless. Its environment drops libfaketime's (scripts/at-midnight.sh fakes the test process's
 * clock; chromium does not load pages under it, and the page's clock is not what those runs look at).
 */
export const launchChromium = (args: string[] = []): Promise<Browser> => {
  const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...env } = process.env;
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args, env: env as Record<string, string> });
};

/** What a page did that a test must see: console errors, uncaught errors, and every URL it requested. */
export type PageLog = { errors: string[]; requests: string[] };

export async function openMap(browser: Browser, url: string): Promise<{ page: Page; log: PageLog }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 720 } });
  const log: PageLog = { errors: [], requests: [] };
  page.on('console', (m) => m.type() === 'error' && log.errors.push(m.text()));
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('request', (r) => log.requests.push(r.url()));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return { page, log };
}

/** A screenshot of the map canvas as the screen shows it (PNG). */
export const canvasPng = (page: Page): Promise<Buffer> => page.locator('#map canvas').screenshot();

type Rgb = [number, number, number];
export type DecodeGlobals = {
  createImageBitmap(b: Blob): Promise<{ width: number; height: number }>;
  OffscreenCanvas: new (w: number, h: number) => { getContext(k: '2d'): { drawImage(b: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
  atob(s: string): string;
};

/**
 * Share of the pixels of `a` that differ from `b` (same size) or, without `b`, from the colour `rgb` (any channel by
 * more than 8). Decoded and compared inside `decoder`, a blank page of the same browser: only the share comes back.
 */
export function pixelShare(decoder: Page, a: Buffer, against: { b: Buffer } | { rgb: Rgb }): Promise<number> {
  return decoder.evaluate(async ({ a64, b64, rgb }) => {
    const g = globalThis as unknown as DecodeGlobals;
    const pixels = async (s: string): Promise<Uint8ClampedArray> => {
      const bmp = await g.createImageBitmap(new Blob([Uint8Array.from(g.atob(s), (c) => c.charCodeAt(0))], { type: 'image/png' }));
      const ctx = new g.OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
      ctx.drawImage(bmp, 0, 0);
      return ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    };
    const pa = await pixels(a64);
    const pb = b64 ? await pixels(b64) : null;
    let n = 0;
    for (let i = 0; i < pa.length; i += 4) {
      const ref = pb ? [pb[i], pb[i + 1], pb[i + 2]] : (rgb as number[]);
      if (Math.abs(pa[i] - ref[0]) > 8 || Math.abs(pa[i + 1] - ref[1]) > 8 || Math.abs(pa[i + 2] - ref[2]) > 8) n++;
    }
    return n / (pa.length / 4);
  }, { a64: a.toString('base64'), b64: 'b' in against ? against.b.toString('base64') : null, rgb: 'rgb' in against ? against.rgb : null });
}

/** `#zoom/lat/lon` (MapLibre's hash) as numbers; null when the hash is not a view. */
export function viewOfHash(hash: string): { zoom: number; lat: number; lon: number } | null {
  const m = /^#([\d.]+)\/(-?[\d.]+)\/(-?[\d.]+)/.exec(hash);
  return m ? { zoom: Number(m[1]), lat: Number(m[2]), lon: Number(m[3]) } : null;
}

/** Resolves when the map has drawn everything it was asked to (MapLibre's `idle`), after a repaint. */
export const waitIdle = (p: Page): Promise<void> =>
  p.evaluate(() => new Promise<void>((resolve) => {
    const m = (globalThis as unknown as { avmMap: { map: { once(e: string, f: () => void): void; triggerRepaint(): void } } }).avmMap.map;
    m.once('idle', () => resolve());
    m.triggerRepaint();
  }));

/** bench/results/screens: the screenshots the note describes. */
export const SCREENS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results', 'screens');
