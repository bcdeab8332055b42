// The map view shared by the open web map (GET /) and the MCP App: MapLibre over the service's own GeoJSON layers.
// Data comes only through `fetchJson` (the web page fetches same-origin; the app goes through its host), so the view
// never reaches anywhere itself. Listings are coloured by the chosen strategy's inventory percentile; an unscored row
// (null percentile) is drawn grey as unscored, never as 0. Controller records (fly_to, highlight, map filters) and the
// evidence of a clicked listing or point are applied through the returned handle.
import * as maplibregl from 'maplibre-gl';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { EvidenceView, LngLat } from './evidence-panel.js';
import { SIGNALS, SOURCES, baseStyle, percentileKey, rampOf, type Signal, type Strategy } from './map-layers.js';
import { favoritesCollection, listingFilter, listingsCollection, numericRange, type ListingsBody, type MapFilters } from './map-data.js';

export type { MapFilters };
export type MapViewOptions = {
  hash: boolean;
  fetchJson: (path: string) => Promise<unknown>;
  onSelect?: (target: { property_id: string } | LngLat) => void;
  /** MapLibre's worker module; default the service's same-origin /assets/maplibre-gl-worker.mjs (null: MapLibre's own default). */
  workerUrl?: string | null;
  /**
   * Told of each data path `fetchJson` could not answer; that layer stays empty and the rest is drawn (the MCP App has
   * no REST door: its tracts and outlines are absent, its listings come through showListings). Without it, a failure
   * rejects `ready` and nothing is drawn.
   */
  onDataError?: (path: string, error: unknown) => void;
  /** Screen pixels kept clear when the view frames an answer's subject and comps (e.g. where a side panel covers the map). */
  evidencePadding?: { top: number; right: number; bottom: number; left: number };
};
export type MapView = {
  map: MapLibreMap;
  /** Resolves once every layer's data is on the map. */
  ready: Promise<void>;
  flyTo(lat: number, lon: number, zoom?: number): void;
  highlight(ids: string[]): void;
  setFilters(f: MapFilters): void;
  filters(): MapFilters;
  setTractSignal(s: Signal): void;
  /** The lowest and highest value the tracts have for a signal (null: none has one); known once `ready`. */
  tractRange(s: Signal): [number, number] | null;
  setFavorites(ids: ReadonlySet<string>): void;
  showEvidence(view: EvidenceView): void;
  /** Draws these listings in place of the loaded ones (a page that has its listings from elsewhere: the MCP App). */
  showListings(body: ListingsBody): void;
};

/** A fly_to finishes within this long, so a controller's move is on screen (and in the URL hash) promptly. */
const FLY_MAX_MS = 1200;
const DEFAULT_WORKER_URL = '/assets/maplibre-gl-worker.mjs';
/** Framing an answer: street level at the closest (comps a few doors apart), a margin round the points. */
const EVIDENCE_MAX_ZOOM = 16;
const EVIDENCE_PADDING = { top: 60, right: 60, bottom: 60, left: 60 };
/** What the view loads through fetchJson: tracts with their signals, the two outline layers, the listings. */
const DATA_PATHS = ['/api/geo/tracts', '/api/geo/neighborhoods', '/api/geo/townships', '/api/listings/chicago'] as const;

export function createMapView(container: HTMLElement, options: MapViewOptions): MapView {
  const workerUrl = options.workerUrl === undefined ? DEFAULT_WORKER_URL : options.workerUrl;
  if (workerUrl !== null) maplibregl.setWorkerUrl(new URL(workerUrl, location.href).href);
  const sharedView = options.hash && location.hash.length > 1; // read before MapLibre writes its own
  const map = new maplibregl.Map({ container, style: baseStyle(), hash: options.hash, attributionControl: false, center: [-87.8, 41.9], zoom: 8 });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  let filters: MapFilters = { strategy: 'flip' };
  let signal: Signal = 'flip_score';
  let highlighted: string[] = [];
  let listings: ListingsBody | null = null;
  let favorites: ReadonlySet<string> = new Set();
  const signalRanges = new Map<Signal, [number, number]>();
  const source = (id: string): GeoJSONSource => map.getSource(id) as GeoJSONSource;
  const styled = new Promise<void>((resolve) => (map.loaded() ? resolve() : map.once('load', () => resolve())));
  /** Runs `f` now when the style's sources exist, else once they do (a caller may be faster than the style). */
  const whenStyled = (f: () => void): void => (map.getSource(SOURCES.evidence) ? f() : void styled.then(f));

  const paintTracts = (): void => {
    const range = signalRanges.get(signal);
    map.setPaintProperty('tracts-fill', 'fill-color', range ? rampOf(['get', signal], range[0], range[1]) : '#bdbdbd');
  };
  const paintListings = (): void => {
    const strategy = filters.strategy ?? 'flip';
    map.setPaintProperty('listings', 'circle-color', rampOf(['get', percentileKey(strategy)], 0, 100));
    map.setFilter('listings', listingFilter(filters));
  };
  const drawFavorites = (): void => {
    if (listings) source(SOURCES.favorites).setData(favoritesCollection(listings, favorites));
  };

  const load = async (): Promise<void> => {
    await styled;
    const settled = await Promise.allSettled(DATA_PATHS.map((p) => options.fetchJson(p)));
    const failed = settled.flatMap((r, i) => (r.status === 'rejected' ? [{ path: DATA_PATHS[i], error: r.reason as unknown }] : []));
    if (failed.length > 0 && !options.onDataError) throw failed[0].error;
    for (const f of failed) options.onDataError?.(f.path, f.error);
    const [tracts, neighborhoods, townships, rows] = settled.map((r) => (r.status === 'fulfilled' ? r.value : null));
    const tractFc = tracts as GeoJSON.FeatureCollection | null;
    for (const s of SIGNALS) {
      const r = tractFc && numericRange(tractFc, s);
      if (r) signalRanges.set(s, r);
    }
    if (tractFc) source(SOURCES.tracts).setData(tractFc);
    if (neighborhoods) source(SOURCES.neighborhoods).setData(neighborhoods as GeoJSON.FeatureCollection);
    if (townships) source(SOURCES.townships).setData(townships as GeoJSON.FeatureCollection);
    if (rows) {
      listings = rows as ListingsBody;
      source(SOURCES.listings).setData(listingsCollection(listings));
    }
    paintTracts();
    paintListings();
    drawFavorites();
    if (!sharedView && tractFc) fitTo(map, tractFc);
    await new Promise<void>((resolve) => map.once('idle', () => resolve()));
  };
  const ready = load();

  map.on('click', (e) => {
    const hit = map.queryRenderedFeatures(e.point, { layers: ['listings'] })[0];
    const id = hit?.properties?.listing_id;
    options.onSelect?.(typeof id === 'string' ? { property_id: id } : { lat: e.lngLat.lat, lon: e.lngLat.lng });
  });
  map.on('mouseenter', 'listings', () => (map.getCanvas().style.cursor = 'pointer'));
  map.on('mouseleave', 'listings', () => (map.getCanvas().style.cursor = ''));

  return {
    map,
    ready,
    flyTo: (lat, lon, zoom) => map.flyTo({ center: [lon, lat], zoom: zoom ?? map.getZoom(), maxDuration: FLY_MAX_MS, essential: true }),
    highlight: (ids) => whenStyled(() => {
      for (const id of highlighted) map.setFeatureState({ source: SOURCES.listings, id }, { highlighted: false });
      highlighted = [...ids];
      for (const id of highlighted) map.setFeatureState({ source: SOURCES.listings, id }, { highlighted: true });
    }),
    setFilters: (f) => {
      filters = { ...filters, ...f };
      if (map.getLayer('listings')) paintListings();
    },
    filters: () => ({ ...filters }),
    setTractSignal: (s) => {
      signal = s;
      paintTracts();
    },
    tractRange: (s) => signalRanges.get(s) ?? null,
    setFavorites: (ids) => {
      favorites = ids;
      drawFavorites();
    },
    showEvidence: (view) => whenStyled(() => {
      const point = (p: LngLat, props: Record<string, string>): GeoJSON.Feature => ({ type: 'Feature', properties: props, geometry: { type: 'Point', coordinates: [p.lon, p.lat] } });
      const features = [
        ...(view.subject ? [point(view.subject, { role: 'subject', label: 'subject' })] : []),
        ...view.accepted.map((c) => point(c, { role: 'accepted', pin: c.pin, label: c.label })),
        ...view.rejected.map((c) => point(c, { role: 'rejected', pin: c.pin, label: c.label })),
      ];
      source(SOURCES.evidence).setData({ type: 'FeatureCollection', features });
      frameEvidence(map, [...(view.subject ? [view.subject] : []), ...view.accepted], options.evidencePadding);
    }),
    showListings: (body) => whenStyled(() => {
      listings = body;
      source(SOURCES.listings).setData(listingsCollection(body));
      paintListings();
      drawFavorites();
    }),
  };
}

/** The closest view that shows the subject and its accepted comps (no move when there are none, or only one point). */
function frameEvidence(map: MapLibreMap, points: readonly LngLat[], padding = EVIDENCE_PADDING): void {
  if (points.length < 2) return;
  const b = new maplibregl.LngLatBounds();
  for (const p of points) b.extend([p.lon, p.lat]);
  map.fitBounds(b, { padding, maxZoom: EVIDENCE_MAX_ZOOM, duration: FLY_MAX_MS / 2 });
}

/** Frames the tracts' extent (a first visit without a shared view in the hash). */
function fitTo(map: MapLibreMap, fc: GeoJSON.FeatureCollection): void {
  const b = new maplibregl.LngLatBounds();
  for (const f of fc.features) {
    const g = f.geometry;
    const polys = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const poly of polys) for (const [lon, lat] of poly[0] ?? []) b.extend([lon, lat]);
  }
  if (!b.isEmpty()) map.fitBounds(b, { padding: 20, animate: false });
}

export type { Strategy };
