// The MCP App page (bundled by scripts/build-app.mjs into one self-contained HTML, the `ui://avm/map.html` resource).
// The host renders it beside a call of get_comps, deep_underwrite_asset, search_investment_inventory or a controller
// tool; the page learns the call's arguments (ontoolinput) and result (ontoolresult) through the extension's App
// bridge, and asks for more only through the host (callServerTool). It never fetches anything itself.
import { App, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { LngLatBounds } from 'maplibre-gl';
import { CONTROLLER_TOOLS, inventoryArgsFor, sceneOfControllerInput, sceneOfResult, toolOfResult, type Scene } from './app-scene.js';
import { el } from './evidence-dom.js';
import { renderEvidence, type LngLat } from './evidence-panel.js';
import { createMapView } from './map-view.js';

/** MapLibre's worker, bundled as a classic script by scripts/build-app.mjs and inlined here as text. */
declare const __MAPLIBRE_WORKER_SOURCE__: string;

// A blob: worker from the inlined source: no request leaves the page. The `.cjs` suffix (a fragment, ignored when the
// blob is loaded) tells MapLibre to start a classic worker directly; for a module worker in an opaque-origin sandbox
// MapLibre would first fetch() the URL, which the host's connect-src may forbid.
const workerUrl = `${URL.createObjectURL(new Blob([__MAPLIBRE_WORKER_SOURCE__], { type: 'text/javascript' }))}#maplibre-worker.cjs`;

const panel = document.getElementById('panel') as HTMLElement;
const mapElement = document.getElementById('map') as HTMLElement;
const app = new App({ name: 'cook-lake-avm-map', version: '1.0.0' });
/** The map's REST layers (tracts, outlines, the listings feed) the app goes without, written on the map element. */
const absentLayers: string[] = [];
const view = createMapView(mapElement, {
  hash: false,
  workerUrl,
  // Inside a host the page has no origin to fetch from: data comes as tool results, so path loads are refused and
  // those layers stay empty (onDataError); listings come through showListings.
  fetchJson: (path) => Promise.reject(new Error(`${path} is not available inside the MCP App: data comes from tool results`)),
  onDataError: (path) => {
    absentLayers.push(path);
    mapElement.dataset.absentLayers = absentLayers.join(' ');
  },
});
// Without a URL hash inside a host, the view is written on the map element so a reader (or a test) can see it.
view.map.on('moveend', () => {
  const c = view.map.getCenter();
  mapElement.dataset.view = `${c.lat.toFixed(5)},${c.lng.toFixed(5)},${view.map.getZoom().toFixed(2)}`;
});

/** Frames what a result drew (the map starts on the whole coverage; a tool result is about a few points). */
function frame(points: readonly LngLat[]): void {
  if (points.length === 0) return;
  const b = new LngLatBounds();
  for (const p of points) b.extend([p.lon, p.lat]);
  view.map.fitBounds(b, { padding: 40, maxZoom: 15, duration: 0 });
}

/** A short message in the panel (errors, empty results, what a controller did), with the disclosure when given. */
function renderNote(title: string, text: string, disclosure?: string | null): void {
  panel.replaceChildren(el(document, 'h2', { text: title }), el(document, 'p', { text }));
  if (disclosure) panel.append(el(document, 'p', { cls: 'disclosure', text: disclosure }));
}
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
  if (listed.strategy) view.setFilters({ strategy: listed.strategy });
  view.showListings(listed.listings);
  return listed.listings.listings.map((l) => l.listing_id);
}

async function applyController(scene: Scene): Promise<void> {
  if (scene.kind === 'fly_to') {
    view.flyTo(scene.target.lat, scene.target.lon, scene.target.zoom ?? undefined);
    renderNote('Map moved', `Centred on ${scene.target.lat.toFixed(5)}, ${scene.target.lon.toFixed(5)}${scene.target.zoom === null ? '' : ` at zoom ${scene.target.zoom}`}.`);
  } else if (scene.kind === 'fly_to_address') {
    renderNote('Map not moved', `The call gave an address (${scene.address}) and no lat/lon; the map moves only to coordinates.`);
  } else if (scene.kind === 'highlight') {
    const drawn = new Set(await loadListingsFor(scene));
    view.highlight(scene.ids);
    const shown = scene.ids.filter((id) => drawn.has(id)).length;
    renderNote('Highlighted', `${shown} of ${scene.ids.length} highlighted ids are among the listings drawn (first inventory page).`);
  } else if (scene.kind === 'filters') {
    const drawn = await loadListingsFor(scene);
    view.setFilters(scene.filters);
    renderNote('Filters applied', `${drawn.length} listings drawn for ${JSON.stringify(scene.filters)}.`);
  }
}

function applyResult(tool: string, result: { isError?: boolean; structuredContent?: unknown; content?: unknown }): void {
  const scene = sceneOfResult(tool, result);
  if (scene.kind === 'evidence') {
    // The open map's evidence panel over the tool's answer in /api/property's shape: one rendering of the ladder.
    const evidence = renderEvidence(panel, scene.body);
    view.showEvidence(evidence);
    frame([...(evidence.subject ? [evidence.subject] : []), ...evidence.accepted]);
  } else if (scene.kind === 'listings') {
    const rows = scene.listings.listings;
    if (scene.strategy) view.setFilters({ strategy: scene.strategy });
    view.showListings(scene.listings);
    frame(rows.flatMap((r) => (r.lat !== undefined && r.lon !== undefined ? [{ lat: r.lat, lon: r.lon }] : [])));
    const text = rows.length ? `${rows.length} listings for ${scene.strategy ?? 'the strategy'}, coloured by percentile.` : `No listings: ${scene.emptyReason ?? 'none matched'}.`;
    renderNote('Investment inventory', text, scene.disclosure);
  } else if (scene.kind === 'error') renderNote(`${tool} failed`, scene.message);
}

function toolOfContext(ctx: McpUiHostContext | undefined): string | null {
  return ctx?.toolInfo?.tool?.name ?? null;
}

app.ontoolinput = (params) => {
  lastInput = params.arguments;
};

app.ontoolresult = (result) => {
  const tool = toolName ?? toolOfContext(app.getHostContext()) ?? toolOfResult(structuredOf(result));
  if (!tool) return renderNote('Nothing to draw', 'The result is not one this map knows.');
  if (CONTROLLER_TOOLS.has(tool)) {
    if (result.isError) return applyResult(tool, result);
    if (lastInput === undefined) return renderNote(`${tool} acknowledged`, 'The host sent no call arguments, so the map has nothing to move to.');
    void applyController(sceneOfControllerInput(tool, lastInput)).catch((e: Error) => renderNote(`${tool}: listings not loaded`, e.message));
    return;
  }
  applyResult(tool, result);
};

app.onhostcontextchanged = (ctx) => {
  toolName = toolOfContext(ctx) ?? toolName;
};

renderNote('Waiting for a tool result', 'The map draws the result of the tool call this view belongs to.');
void app.connect().then(() => {
  toolName = toolOfContext(app.getHostContext());
});
