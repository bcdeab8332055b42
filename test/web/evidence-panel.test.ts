// The evidence panel (src/web/client/evidence-panel.ts) in Debian's chromium, driven by playwright-core: the module is
// bundled with esbuild into a temp dir, loaded on a harness page, and fed real GET /api/property bodies from running
// services — a point, a Tier-1 range, a Tier-2 range, an area estimate, a suppression, a refusal and error bodies.
// Checked: the ladder's rule per outcome (no midpoint on a range, the area label verbatim, the suppression reason),
// the disclosure under every number block, comp rows with their adjustments, the subject's own earlier sale (its values
// only beside a point), rejected rows with their reasons, the
// pro-forma only for a point, the comps' locations handed to the map, text never turned into markup; and that the
// REST door's comps carry lat/lon inside the two counties, at the distance they report.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATOR } from '../../src/registry/groups/generator.js';
import { bboxOf, haversineMi, inBBox, type BBox } from '../../src/reference/geo.js';
import type { ServiceHandle } from '../../src/server.js';
import { usd, usdRange } from '../../src/web/client/evidence-format.js';
import type { EvidenceView } from '../../src/web/client/evidence-view.js';
import { answersByOutcome, answerWhere, outcomeOf, startPanelServices, type Found, type Json } from './evidence-answers.js';
import { onOneUtcDay } from '../support/utc-day.js';
import { launchChromium } from './support.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTCOMES = ['point', 'range', 'tier2_range', 'suppressed'] as const;

let served: ServiceHandle;
let plain: ServiceHandle;
let browser: Browser;
let page: Page;
let bundleDir: string;
const pageErrors: string[] = [];
const bodies = new Map<string, Found>();

beforeAll(async () => {
  const s = await startPanelServices();
  served = s.served;
  plain = s.plain;
  for (const [k, v] of await answersByOutcome(served, s.servedDir, OUTCOMES)) bodies.set(k, v);
  for (const [k, v] of await answersByOutcome(plain, s.plainDir, ['area_context'])) bodies.set(k, v);
  // answers moved by the subject's own earlier sale (the served champion carries prior-sale weights)
  for (const outcome of ['point', 'range']) {
    const f = await answerWhere(served, s.servedDir, (b) => outcomeOf(b) === outcome && (b.investor?.valuation?.arv?.prior_sale?.factor ?? 1) !== 1);
    if (f) bodies.set(`${outcome}+prior`, f);
  }
  bundleDir = mkdtempSync(join(tmpdir(), 'avm-panel-'));
  await build({
    stdin: { contents: `export * from './src/web/client/evidence-panel.ts';`, resolveDir: REPO, loader: 'ts', sourcefile: 'panel-entry.ts' },
    bundle: true, format: 'iife', globalName: 'EvidencePanel', platform: 'browser', target: 'es2022', outfile: join(bundleDir, 'panel.js'), logLevel: 'silent',
  });
  writeFileSync(join(bundleDir, 'harness.html'), '<!doctype html><html><head><meta charset="utf-8"><title>panel</title></head><body><div id="root"></div><script src="panel.js"></script></body></html>');
  browser = await launchChromium(['--no-sandbox', '--headless=new']);
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => (m.type() === 'error' ? pageErrors.push(m.text()) : undefined));
  await page.goto(pathToFileURL(join(bundleDir, 'harness.html')).href);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([served?.close(), plain?.close()]);
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

type Rendered = { view: EvidenceView; text: string; html: string };

/** Renders `body` on the harness page; the view, the root's text and its markup. */
async function render(body: unknown): Promise<Rendered> {
  // runs in the page: browser globals through globalThis (this program's lib has no DOM types)
  return page.evaluate((b) => {
    const g = globalThis as any;
    const root = g.document.getElementById('root');
    const view = g.EvidencePanel.renderEvidence(root, b) as EvidenceView;
    return { view, text: (root.textContent ?? '') as string, html: root.innerHTML as string };
  }, body);
}

/** Every number block ends with the disclosure, verbatim; the blocks' classes in order. */
async function numberBlocks(): Promise<Array<{ cls: string; lastIsDisclosure: boolean; disclosure: string | null }>> {
  return page.$$eval('#root section.evidence-block', (sections: any[]) => sections.map((s) => ({
    cls: s.className,
    lastIsDisclosure: s.lastElementChild?.classList.contains('disclosure') ?? false,
    disclosure: s.lastElementChild?.textContent ?? null,
  })));
}

const NO_NUMBERS = ['outcome-suppressed', 'evidence-refusal'];

async function expectDisclosureUnderEveryNumberBlock(disclosure: string): Promise<number> {
  const blocks = (await numberBlocks()).filter((b) => !NO_NUMBERS.some((c) => b.cls.includes(c)));
  for (const b of blocks) expect({ cls: b.cls, last: b.disclosure }).toEqual({ cls: b.cls, last: disclosure });
  return blocks.length;
}

const body = (outcome: string): Json => {
  const f = bodies.get(outcome);
  if (!f) throw new Error(`no ${outcome} answer found in the corpus (found: ${[...bodies.keys()].join(', ')})`);
  return f.body;
};
const rowsText = (selector: string): Promise<string[][]> => page.$$eval(`#root ${selector} tbody tr`, (trs: any[]) => trs.map((tr) => Array.from(tr.children as ArrayLike<any>, (td) => (td.textContent ?? '') as string)));

describe('the evidence panel renders what the REST door served', () => {
  it('a point: the value, its interval, comps with adjustments, rejected reasons, risk, the pro-forma, disclosure under each', async () => {
    const b = body('point');
    const v = b.investor.valuation;
    const r = await render(b);
    expect(await page.textContent('#root .outcome-point .headline')).toBe(usd(v.arv.value));
    expect(r.text).toContain(usdRange(v.arv.low, v.arv.high));
    const comps = await rowsText('.comps-table');
    expect(comps.map((row) => row[0])).toEqual(v.arv.comps.map((c: Json) => c.pin));
    const c0 = v.arv.comps[0];
    expect(comps[0]).toEqual(expect.arrayContaining([usd(c0.price), `×${c0.index_factor.toFixed(3)}`, `${c0.dist_mi.toFixed(2)} mi`, c0.similarity.toFixed(2)]));
    expect(comps[0].join(' ')).toContain(`${c0.condition} (${c0.condition_source}`);
    const rejected = await rowsText('.rejected-table');
    expect(rejected.map((row) => row[1])).toEqual(v.artifact.comps_rejected.map((x: Json) => x.reason));
    expect(await page.locator('#root .risk-flags li').count()).toBe(b.investor.risk.flags.length);
    expect(await page.locator('#root .evidence-proforma').count()).toBe(1);
    expect(await expectDisclosureUnderEveryNumberBlock(b.disclosure)).toBeGreaterThanOrEqual(5); // value, comps, rejected, risk, pro-forma
    expect(r.view.subject).toEqual({ lat: v.subject.lat, lon: v.subject.lon });
    expect(r.view.accepted).toEqual(v.arv.comps.map((c: Json) => expect.objectContaining({ pin: c.pin, lat: c.lat, lon: c.lon })));
    expect(r.view.rejected).toEqual(v.artifact.comps_rejected.map((c: Json) => expect.objectContaining({ pin: c.pin, lat: c.lat, lon: c.lon })));
  });

  it.each(['range', 'tier2_range'])('a %s shows low–high and no midpoint anywhere, and no pro-forma', async (outcome) => {
    const b = body(outcome);
    const v = b.investor.valuation;
    const r = await render(b);
    expect(await page.textContent(`#root .outcome-${outcome} .headline`)).toBe(usdRange(v.arv.low, v.arv.high));
    const mid = (v.arv.low + v.arv.high) / 2;
    // the midpoint in every spelling a renderer might use, and the unrounded centres a body carries beside a range
    const centres = [usd(mid), `$${mid.toLocaleString('en-US')}`, String(mid), v.artifact?.arv?.value, v.arv.model?.value, v.area_context?.value]
      .filter((x) => x != null).flatMap((x) => (typeof x === 'number' ? [usd(x), String(x)] : [x]));
    for (const c of centres) expect(r.text, `midpoint/centre ${c} rendered`).not.toContain(c);
    expect(await page.locator('#root .evidence-proforma').count()).toBe(0);
    expect(await page.locator('#root .outcome-point').count()).toBe(0);
    expect(await page.locator('#root .comps-table tbody tr').count()).toBe(v.arv.comps?.length ?? 0);
    await expectDisclosureUnderEveryNumberBlock(b.disclosure);
  });

  it('the subject\'s own earlier sale: beside a point its carried price and the comps\' value; beside a range only the sale and the factor', async () => {
    const p = body('point+prior');
    const ps = p.investor.valuation.arv.prior_sale;
    let r = await render(p);
    let block = (await page.textContent('#root .evidence-prior-sale')) ?? '';
    for (const t of [ps.sale_date, usd(ps.price), usd(ps.carried_value), usd(ps.comps_value), `×${ps.factor.toFixed(3)}`, ps.weight.toFixed(2)]) expect(block).toContain(t);
    await expectDisclosureUnderEveryNumberBlock(p.disclosure);
    expect(r.text).toContain(usd(p.investor.valuation.arv.value));
    const q = body('range+prior');
    const qs = q.investor.valuation.arv.prior_sale;
    r = await render(q);
    block = (await page.textContent('#root .evidence-prior-sale')) ?? '';
    for (const t of [qs.sale_date, usd(qs.price), `×${qs.factor.toFixed(3)}`]) expect(block).toContain(t);
    // the door serves no value of the property beside a range, so the panel has none to show
    expect([qs.carried_value, qs.comps_value]).toEqual([null, null]);
    expect(block).not.toContain('carried to today');
    expect(r.text).not.toContain(usd(q.investor.valuation.artifact.arv.value));
    await expectDisclosureUnderEveryNumberBlock(q.disclosure);
  });

  it('an area estimate shows its label verbatim, and no pro-forma', async () => {
    const b = body('area_context');
    const ac = b.investor.valuation.area_context;
    await render(b);
    expect(await page.textContent('#root .outcome-area_context .area-label')).toBe(ac.label);
    expect(ac.label).toBe('Area estimate — not property-specific');
    expect(await page.locator('#root .evidence-proforma').count()).toBe(0);
    expect(await expectDisclosureUnderEveryNumberBlock(b.disclosure)).toBeGreaterThanOrEqual(1);
  });

  it('a suppression shows its reason and no number in the value block', async () => {
    const b = body('suppressed');
    const reason = b.investor.valuation.arv.suppression_reason;
    const r = await render(b);
    const headline = await page.textContent('#root .outcome-suppressed .headline');
    expect(headline).toContain(reason);
    expect(await page.textContent('#root .outcome-suppressed')).not.toMatch(/\$\d/);
    expect(await page.locator('#root .evidence-proforma').count()).toBe(0);
    expect(r.view.accepted).toEqual([]);
    await expectDisclosureUnderEveryNumberBlock(b.disclosure);
  });

  it('a refusal (units_required) renders its message with the disclosure, and an error body its code and message', async () => {
    const p = bodies.get('point') as Found;
    const lat = Number(/lat=([^&]+)/.exec(p.query)?.[1]) + 0.0013; // off the parcel: no record, no units
    const lon = Number(/lon=([^&]+)/.exec(p.query)?.[1]);
    const refusal = (await (await fetch(`${served.url}/api/property?lat=${lat}&lon=${lon}`)).json()) as Json;
    expect(refusal.refusal?.code).toBe('units_required');
    const rr = await render(refusal);
    expect(rr.text).toContain(refusal.refusal.message);
    expect(rr.text).toContain(refusal.disclosure);

    const res = await fetch(`${served.url}/api/property?lat=91&lon=-87.7&units=1`);
    expect(res.status).toBe(400);
    const err = (await res.json()) as Json;
    const r = await render(err);
    expect(await page.textContent('#root .evidence-error .error-code')).toBe(`Error: ${err.error.code}`);
    expect(r.text).toContain(err.error.message);
    expect(r.view).toEqual({ subject: null, accepted: [], rejected: [] });
  });

  it('text from an answer never becomes markup', async () => {
    const hostile = '<img src=x onerror="window.__owned=1">';
    const res = await fetch(`${served.url}/api/property?property_id=${encodeURIComponent(hostile)}`);
    const err = (await res.json()) as Json;
    const r = await render({ ...err, error: { ...err.error, message: `${err.error.message} ${hostile}` } });
    expect(r.text).toContain(hostile);
    expect(await page.locator('#root img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).__owned)).toBeUndefined();
  });

  it('fetchEvidence gets the same body as a direct GET, whatever the status, on the page\'s own origin', async () => {
    const p = await browser.newPage();
    try {
      await p.goto(`${served.url}/api/health`);
      await p.addScriptTag({ path: join(bundleDir, 'panel.js') });
      const q = (bodies.get('point') as Found).query;
      const [lat, lon, units] = ['lat', 'lon', 'units'].map((k) => Number(new RegExp(`${k}=([^&]+)`).exec(q)?.[1]));
      // both answers of one UTC day (valuations are as of today; a midnight between them changes the inputs_hash)
      const [got, direct] = await onOneUtcDay(async () => [
        (await p.evaluate((t) => (globalThis as any).EvidencePanel.fetchEvidence(t), { lat, lon, units })) as Json,
        (await (await fetch(`${served.url}/api/property?${q}`)).json()) as Json,
      ]);
      expect(got.investor.valuation.inputs_hash).toBe(direct.investor.valuation.inputs_hash);
      const bad = (await p.evaluate(() => (globalThis as any).EvidencePanel.fetchEvidence({ lat: 91, lon: -87.7 }))) as Json;
      const badDirect = await fetch(`${served.url}/api/property?lat=91&lon=-87.7`);
      expect(badDirect.status).toBe(400);
      const { request_id: _, ...expected } = ((await badDirect.json()) as Json).error;
      expect(bad.error).toMatchObject(expected);
    } finally {
      await p.close();
    }
  });

  it('no error on the harness page', () => {
    expect(pageErrors).toEqual([]);
  });
});

/** Bounding boxes of the two counties: Cook's townships (data/reference) and the Lake outline (generator registry). */
function countyBoxes(): BBox[] {
  const townships = JSON.parse(readFileSync(join(REPO, 'data', 'reference', 'townships.geojson'), 'utf8')) as { features: Array<{ geometry: Parameters<typeof bboxOf>[0] }> };
  const boxes = townships.features.map((f) => bboxOf(f.geometry));
  const cook: BBox = [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
  const lake = GENERATOR.v.lake_outline_lonlat;
  const lons = lake.filter((_, i) => i % 2 === 0);
  const lats = lake.filter((_, i) => i % 2 === 1);
  return [cook, [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]];
}

describe('the REST door\'s comps can be drawn', () => {
  it('accepted and rejected comps carry lat/lon inside the counties, ~1 m precise, at the distance they report', () => {
    const boxes = countyBoxes();
    let checked = 0;
    for (const outcome of ['point', 'range', 'area_context']) {
      const v = bodies.get(outcome)?.body.investor.valuation as Json | undefined;
      if (!v) continue;
      for (const c of [...(v.arv.comps ?? []), ...(v.artifact?.comps_rejected ?? [])] as Json[]) {
        expect(boxes.some((b) => inBBox(c.lon, c.lat, b)), `${c.pin} at ${c.lat},${c.lon}`).toBe(true);
        expect(Math.round(c.lat * 1e5) / 1e5).toBe(c.lat);
        // 5 decimals move a point by at most ~1 m: the distance from the subject agrees to 0.002 mi
        expect(Math.abs(haversineMi(v.subject.lat, v.subject.lon, c.lat, c.lon) - c.dist_mi)).toBeLessThan(0.002);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});
