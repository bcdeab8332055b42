// The MCP App page (bundled by scripts/build-app.mjs into one self-contained HTML, the `ui://avm/map.html` resource).
// The host renders it beside a call of get_comps, deep_underwrite_asset, search_investment_inventory or a controller
// tool; the page learns the call's arguments (ontoolinput) and result (ontoolresult) through the extension's App
// bridge, and asks for more only through the host (callServerTool). It never fetches anything itself.
import { App, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { setWorkerUrl } from 'maplibre-gl';
import { renderNote, renderToolEvidence } from './app-evidence-local.js';
import { createMapView } from './app-map-local.js';
import { CONTROLLER_TOOLS, inventoryArgsFor, sceneOfControllerInput, sceneOfResult, toolOfResult, type Scene } from './app-scene.js';

/** MapLibre's worker, bundled as a classic script by scripts/build-app.mjs and inlined here as text. */
declare const __MAPLIBRE_WORKER_SOURCE__: string;

// A blob: worker from the inlined source: no request leaves the page. The `.cjs` suffix (a fragment, ignored when the
// blob is loaded) tells MapLibre to start a classic worker directly; for a module worker in an opaque-origin sandbox
// MapLibre would first fetch() the URL, which the host's connect-src may forbid.
setWorkerUrl(`${URL.createObjectURL(new Blob([__MAPLIBRE_WORKER_SOURCE__], { type: 'text/javascript' }))}#maplibre-worker.cjs`);

const panel = document.getElementById('panel') as HTMLElement;
const app = new App({ name: 'cook-lake-avm-map', version: '1.0.0' });
const view = createMapView(document.getElementById('map') as HTMLElement, {
  hash: false,
  // Inside a host the page has no origin to fetch from: data comes as tool results, so path loads are refused.
  fetchJson: (path) => Promise.reject(new Error(`${path} is not available inside the MCP App: data comes from tool results`)),
});
let toolName: string | null = null;
/** The call's arguments, kept until its result says which tool it was (hosts need not send toolInfo). */
let lastInput: unknown;

const structuredOf = (r: { structuredContent?: unknown }): Record<string, unknown> | null =>
  typeof r.structuredContent === 'object' && r.structuredContent !== null ? (r.structuredContent as Record<string, unknown>) : null;

/** Listings under a controller: a page of the inventory through the host, with the filters when the call set some. */
async function loadListingsFor(scene: Scene): Promise<string[]> {
  const result = await app.callServerTool({ name: 'search_investment_inventory', arguments: inventoryArgsFor(scene) });
  const listed = sceneOfResult('search_investment_inventory', result);
  if (listed.kind !== 'listings') throw new Error(listed.kind === 'error' ? listed.message : 'the inventory answered nothing');
  view.showListings(listed.listings);
  return listed.listings.map((l) => l.id);
}

async function applyController(scene: Scene): Promise<void> {
  if (scene.kind === 'fly_to') {
    view.flyTo(scene.target.lat, scene.target.lon, scene.target.zoom ?? undefined);
    renderNote(panel, 'Map moved', `Centred on ${scene.target.lat.toFixed(5)}, ${scene.target.lon.toFixed(5)}${scene.target.zoom === null ? '' : ` at zoom ${scene.target.zoom}`}.`);
  } else if (scene.kind === 'fly_to_address') {
    renderNote(panel, 'Map not moved', `The call gave an address (${scene.address}) and no lat/lon; the map moves only to coordinates.`);
  } else if (scene.kind === 'highlight') {
    const drawn = new Set(await loadListingsFor(scene));
    view.highlight(scene.ids);
    const shown = scene.ids.filter((id) => drawn.has(id)).length;
    renderNote(panel, 'Highlighted', `${shown} of ${scene.ids.length} highlighted ids are among the listings drawn (first inventory page).`);
  } else if (scene.kind === 'filters') {
    const drawn = await loadListingsFor(scene);
    view.setFilters(scene.filters);
    renderNote(panel, 'Filters applied', `${drawn.length} listings drawn for ${JSON.stringify(scene.filters)}.`);
  }
}

function applyResult(tool: string, result: { isError?: boolean; structuredContent?: unknown; content?: unknown }): void {
  const scene = sceneOfResult(tool, result);
  if (scene.kind === 'evidence') {
    view.showEvidence(scene.evidence);
    renderToolEvidence(panel, tool, scene.answer);
  } else if (scene.kind === 'listings') {
    view.showListings(scene.listings);
    const text = scene.listings.length ? `${scene.listings.length} listings for ${scene.strategy ?? 'the strategy'}, coloured by percentile.` : `No listings: ${scene.emptyReason ?? 'none matched'}.`;
    renderNote(panel, 'Investment inventory', text, scene.answer.disclosure);
  } else if (scene.kind === 'error') renderNote(panel, `${tool} failed`, scene.message);
}

function toolOfContext(ctx: McpUiHostContext | undefined): string | null {
  return ctx?.toolInfo?.tool?.name ?? null;
}

app.ontoolinput = (params) => {
  lastInput = params.arguments;
};

app.ontoolresult = (result) => {
  const tool = toolName ?? toolOfContext(app.getHostContext()) ?? toolOfResult(structuredOf(result));
  if (!tool) return renderNote(panel, 'Nothing to draw', 'The result is not one this map knows.');
  if (CONTROLLER_TOOLS.has(tool)) {
    if (result.isError) return applyResult(tool, result);
    if (lastInput === undefined) return renderNote(panel, `${tool} acknowledged`, 'The host sent no call arguments, so the map has nothing to move to.');
    void applyController(sceneOfControllerInput(tool, lastInput)).catch((e: Error) => renderNote(panel, `${tool}: listings not loaded`, e.message));
    return;
  }
  applyResult(tool, result);
};

app.onhostcontextchanged = (ctx) => {
  toolName = toolOfContext(ctx) ?? toolName;
};

renderNote(panel, 'Waiting for a tool result', 'The map draws the result of the tool call this view belongs to.');
void app.connect().then(() => {
  toolName = toolOfContext(app.getHostContext());
});
