// The MCP App (the official MCP Apps extension, @modelcontextprotocol/ext-apps): one `ui://` HTML resource, the map
// and evidence page built by scripts/build-app.mjs into dist/web/app.html, and the tools whose results it draws. A
// host that renders apps shows the page beside those tools' results; a host without apps ignores the `_meta.ui` key
// and still gets each result's full text and structured content (server.ts builds both for every tool).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { registerAppResource, registerAppTool, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { ROOT_DIR } from '../../config.js';
import { AppError } from '../../errors/app-error.js';

export const MAP_APP_URI = 'ui://avm/map.html';
export { RESOURCE_MIME_TYPE as MAP_APP_MIME_TYPE };

/** Where scripts/build-app.mjs writes the one self-contained page (script, styles and MapLibre inlined). */
export const MAP_APP_HTML_PATH = join(ROOT_DIR, 'dist', 'web', 'app.html');

/**
 * The tools whose results the page draws: the comps and the underwriting evidence (subject, comps, ladder), the
 * ranked inventory (listings), and the three map controllers (their arguments move or mark the map). Deprecated
 * aliases keep their old text-only behaviour so a host shows one app per concept.
 */
export const MAP_APP_TOOLS: ReadonlySet<string> = new Set([
  'get_comps', 'deep_underwrite_asset', 'search_investment_inventory', 'update_map_filters', 'fly_to_location', 'highlight_properties',
]);

/**
 * What the page may load, for the host's Content-Security-Policy: nothing from outside. Every script, style and the
 * map worker are inlined; the data comes only from tool results and tool calls through the host bridge.
 */
const NO_OUTSIDE_ORIGINS = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

/** The built page; not built yet is `not_implemented` naming the build command (a clear error, not a crash). */
export async function readAppHtml(path: string = MAP_APP_HTML_PATH): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    throw new AppError('not_implemented', `the MCP App page is not built (${path} is missing): run \`npm run build\``);
  }
}

/** Registers the page as a resource (listed and readable on both protocol lanes: the same server serves both). */
export function registerMapAppResource(server: McpServer): void {
  const ui = { csp: NO_OUTSIDE_ORIGINS, prefersBorder: true };
  registerAppResource(
    server,
    'Cook and Lake County valuation map',
    MAP_APP_URI,
    { description: 'Map of a valuation subject with its accepted comps, listings and the evidence panel (range, suppression reason, disclosure), drawn from tool results', _meta: { ui } },
    async () => ({ contents: [{ uri: MAP_APP_URI, mimeType: RESOURCE_MIME_TYPE, text: await readAppHtml(), _meta: { ui } }] }),
  );
}

type ToolConfig = Parameters<McpServer['registerTool']>[1] & { _meta?: Record<string, unknown> };
type ToolCallback = Parameters<McpServer['registerTool']>[2];

/**
 * Registers a tool; one of MAP_APP_TOOLS through the extension's helper, which adds `_meta.ui.resourceUri` (and the
 * older `_meta["ui/resourceUri"]` key hosts of the first draft read) without touching the tool's text or schemas.
 */
export function registerToolWithApp(server: McpServer, name: string, config: ToolConfig, cb: ToolCallback): void {
  if (!MAP_APP_TOOLS.has(name)) {
    server.registerTool(name, config as never, cb as never);
    return;
  }
  registerAppTool(server, name, { ...(config as object), _meta: { ...config._meta, ui: { resourceUri: MAP_APP_URI } } } as never, cb as never);
}
