// The MCP App (item 5 of issue 15) through the official SDK clients on both lanes: the `ui://` page is listed and
// read with the MCP Apps MIME type as one self-contained HTML, exactly the six app tools carry
// `_meta.ui.resourceUri`, and an app tool's result still carries the full text and structured content that hosts
// without apps read. The page's own reading of a real get_comps result is checked with the app's scene module.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../scripts/build-app.mjs';
import { MAP_APP_MIME_TYPE, MAP_APP_TOOLS, MAP_APP_URI, readAppHtml } from '../../src/mcp/app/map-app.js';
import type { ServiceHandle } from '../../src/server.js';
import { sceneOfResult, toolOfResult } from '../../src/web/client/app-scene.js';
import { bearer, mcpClient, mintKey, modernMcpClient, startDoors } from './support.js';

type Listed = { uri: string; mimeType?: string; _meta?: Record<string, unknown> };
type Content = { uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> };
type ToolEntry = { name: string; _meta?: Record<string, unknown> };
type CallResult = { isError?: boolean; structuredContent?: unknown; content: Array<{ type: string; text?: string }> };
type AnyClient = {
  listResources(): Promise<{ resources: Listed[] }>;
  readResource(p: { uri: string }): Promise<{ contents: Content[] }>;
  listTools(): Promise<{ tools: ToolEntry[] }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
};

const SIX = ['get_comps', 'deep_underwrite_asset', 'search_investment_inventory', 'update_map_filters', 'fly_to_location', 'highlight_properties'];

let service: ServiceHandle;
let token: string;
beforeAll(async () => {
  await buildApp();
  service = await startDoors();
  token = (await mintKey(service, ['read', 'underwrite'])).token;
});
afterAll(async () => {
  await service?.close();
});

/** The page's markup with the inline script and style bodies cut out: what a host would load from attributes. */
const markupOf = (html: string): string => html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>').replace(/<style>[\s\S]*?<\/style>/g, '<style></style>');

describe.each([
  ['v2 client at 2026-07-28 (modern lane)', async () => (await modernMcpClient(service, bearer(token))) as unknown as AnyClient],
  ['v1 client at 2025-11-25 (legacy lane)', async () => (await mcpClient(service, bearer(token))) as unknown as AnyClient],
] as const)('%s', (_lane, connect) => {
  it('lists and reads the ui:// page as text/html;profile=mcp-app, one complete HTML that loads nothing from outside', async () => {
    const client = await connect();
    try {
      const { resources } = await client.listResources();
      const listed = resources.filter((r) => r.uri.startsWith('ui://'));
      expect(listed.map((r) => [r.uri, r.mimeType])).toEqual([[MAP_APP_URI, 'text/html;profile=mcp-app']]);
      const { contents } = await client.readResource({ uri: MAP_APP_URI });
      expect(contents).toHaveLength(1);
      const page = contents[0];
      expect(page.mimeType).toBe(MAP_APP_MIME_TYPE);
      expect(page._meta?.ui).toMatchObject({ csp: { connectDomains: [], resourceDomains: [], frameDomains: [] } });
      const html = page.text ?? '';
      expect(html.startsWith('<!doctype html>')).toBe(true);
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
      expect(html).toMatch(/<div id="map"[^>]*><\/div>/);
      // The bundle is inline: MapLibre (its worker too) and the ext-apps App class are in the one script.
      expect(html.length).toBeGreaterThan(1_000_000);
      expect(html).toContain('maplibregl-map');
      const markup = markupOf(html);
      expect(markup).not.toMatch(/<script[^>]*\bsrc=/i);
      expect(markup).not.toMatch(/<link\b/i);
      expect(markup).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
      // Styles load nothing either: every url() in the inline CSS is a data: URI.
      const css = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
      const cssUrls = [...css.matchAll(/url\(\s*["']?([^"')]+)/g)].map((m) => m[1]);
      expect(cssUrls.length).toBeGreaterThan(0);
      for (const u of cssUrls) expect(u.startsWith('data:'), u.slice(0, 60)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('puts _meta.ui.resourceUri on exactly the six app tools, aliases and other tools without it', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      const withApp = tools.filter((t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri === MAP_APP_URI).map((t) => t.name);
      expect(withApp.sort()).toEqual([...SIX].sort());
      expect([...MAP_APP_TOOLS].sort()).toEqual([...SIX].sort());
      expect(tools.filter((t) => t._meta?.ui !== undefined).map((t) => t.name).sort()).toEqual([...SIX].sort());
      // The first-draft key hosts may still read, set by the extension's registerAppTool.
      for (const t of tools.filter((x) => SIX.includes(x.name))) expect(t._meta?.['ui/resourceUri']).toBe(MAP_APP_URI);
    } finally {
      await client.close();
    }
  });

  it('a get_comps result still carries the full text and structured content; the page reads its subject, comps and disclosure', async () => {
    const client = await connect();
    try {
      const r = (await client.callTool({ name: 'get_comps', arguments: { lat: 41.88, lon: -87.7 } })) as CallResult;
      expect(r.isError ?? false, JSON.stringify(r.content).slice(0, 300)).toBe(false);
      const text = r.content.find((c) => c.type === 'text')?.text ?? '';
      const structured = r.structuredContent as { subject: { lat: number; lon: number } | null; comps_used: unknown[]; disclosure: string };
      expect(JSON.parse(text)).toEqual(structured);
      expect(structured.disclosure).toMatch(/not an appraisal/);
      expect(toolOfResult(structured)).toBe('get_comps');
      const scene = sceneOfResult('get_comps', r);
      expect(scene.kind).toBe('evidence');
      if (scene.kind !== 'evidence') return;
      expect(structured.subject).not.toBeNull();
      // The panel's body: the subject as /api/property's `property`, the comps as the valuation's, the disclosure verbatim.
      expect(scene.body.property).toBe(structured.subject);
      expect(scene.body.disclosure).toBe(structured.disclosure);
      expect(scene.body.investor.valuation?.arv.comps).toBe(structured.comps_used);
    } finally {
      await client.close();
    }
  });
});

describe('the page file', () => {
  it('not built yet is not_implemented naming the build command', async () => {
    await expect(readAppHtml('/nonexistent/dist/web/app.html')).rejects.toMatchObject({ code: 'not_implemented', message: expect.stringMatching(/npm run build/) });
  });
});
