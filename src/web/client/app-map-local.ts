// App-local map for the MCP App: MapLibre GL JS on a plain background (no tiles, no glyphs: nothing to fetch), with
// the subject, accepted and rejected comps and listings as circle layers. It has the agreed shape of MAP's
// map-view.ts (createMapView → flyTo / highlight / setFilters / showEvidence) plus showListings, which the app needs
// because its listings come from a tool result instead of the map's own loading; the lead swaps this file for
// map-view.ts at merge (keeping showListings or its equivalent).
import { LngLatBounds, Map as MapLibreMap, type ExpressionSpecification, type GeoJSONSource, type StyleSpecification } from 'maplibre-gl';
import type { Feature as GeoFeature, FeatureCollection, Point } from 'geojson';
import type { EvidenceView, LngLat } from './app-shared-types.js';
import type { ListingPoint, MapFilters } from './app-scene.js';

/** Cook and Lake County, IL: the service's coverage, the view before anything is drawn. */
const COVERAGE_BOUNDS: [[number, number], [number, number]] = [[-88.27, 41.46], [-87.52, 42.50]];

const STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#eef0ea' } }],
};

type Feature = GeoFeature<Point, Record<string, unknown>>;
const point = (at: LngLat, props: Record<string, unknown>): Feature => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [at.lon, at.lat] }, properties: props });
const collection = (features: Feature[]): FeatureCollection<Point> => ({ type: 'FeatureCollection', features });

export type MapView = {
  map: MapLibreMap;
  flyTo(lat: number, lon: number, zoom?: number): void;
  highlight(ids: string[]): void;
  setFilters(f: MapFilters): void;
  showEvidence(view: EvidenceView): void;
  showListings(rows: ListingPoint[]): void;
  ready: Promise<void>;
};

/** Percentile colour ramp; a row without a percentile is drawn grey as unscored, never as 0. */
const LISTING_COLOUR: ExpressionSpecification = ['case', ['==', ['get', 'percentile'], null], '#9a9a9a', ['interpolate', ['linear'], ['get', 'percentile'], 0, '#c7d7e8', 50, '#5b8fc7', 100, '#12355b']];

export function createMapView(container: HTMLElement, options: { hash: boolean; fetchJson: (path: string) => Promise<unknown> }): MapView {
  const map = new MapLibreMap({ container, style: STYLE, bounds: COVERAGE_BOUNDS, hash: options.hash, attributionControl: false, canvasContextAttributes: { preserveDrawingBuffer: true } });
  const ready = new Promise<void>((resolve) => map.once('load', () => resolve()));
  // Without a URL hash inside a host, the view is written on the container so a test (or a reader) can see it.
  map.on('moveend', () => {
    const c = map.getCenter();
    container.dataset.view = `${c.lat.toFixed(5)},${c.lng.toFixed(5)},${map.getZoom().toFixed(2)}`;
  });
  void ready.then(() => {
    for (const id of ['listings', 'rejected', 'accepted', 'subject']) map.addSource(id, { type: 'geojson', data: collection([]) });
    map.addLayer({ id: 'listings', type: 'circle', source: 'listings', paint: { 'circle-radius': 5, 'circle-color': LISTING_COLOUR, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1 } });
    map.addLayer({ id: 'listings-highlight', type: 'circle', source: 'listings', filter: ['in', ['get', 'id'], ['literal', []]], paint: { 'circle-radius': 9, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-color': '#e4572e', 'circle-stroke-width': 3 } });
    map.addLayer({ id: 'rejected', type: 'circle', source: 'rejected', paint: { 'circle-radius': 4, 'circle-color': '#b0b0b0', 'circle-stroke-color': '#555555', 'circle-stroke-width': 1 } });
    map.addLayer({ id: 'accepted', type: 'circle', source: 'accepted', paint: { 'circle-radius': 6, 'circle-color': '#2a9d8f', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1.5 } });
    map.addLayer({ id: 'subject', type: 'circle', source: 'subject', paint: { 'circle-radius': 9, 'circle-color': '#e76f51', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 } });
  });
  const setData = (id: string, features: Feature[]): void => {
    void (map.getSource(id) as GeoJSONSource).setData(collection(features));
  };
  const fit = (points: LngLat[]): void => {
    if (points.length === 0) return;
    const b = new LngLatBounds();
    for (const p of points) b.extend([p.lon, p.lat]);
    map.fitBounds(b, { padding: 40, maxZoom: 15, duration: 0 });
  };
  const after = (f: () => void): void => void ready.then(f);
  return {
    map,
    ready,
    flyTo: (lat, lon, zoom) => after(() => map.jumpTo({ center: [lon, lat], ...(zoom === undefined ? {} : { zoom }) })),
    highlight: (ids) => after(() => map.setFilter('listings-highlight', ['in', ['get', 'id'], ['literal', ids]])),
    setFilters: (f) =>
      after(() => {
        const all: ExpressionSpecification[] = [];
        if (f.min_percentile !== undefined) all.push(['>=', ['coalesce', ['get', 'percentile'], -1], f.min_percentile]);
        if (f.max_price !== undefined) all.push(['<=', ['coalesce', ['get', 'price'], Number.MAX_VALUE], f.max_price]);
        if (f.min_confidence !== undefined) all.push(['>=', ['coalesce', ['get', 'confidence'], -1], f.min_confidence]);
        map.setFilter('listings', all.length ? ['all', ...all] : null);
      }),
    showEvidence: (view) =>
      after(() => {
        setData('subject', view.subject ? [point(view.subject, { role: 'subject' })] : []);
        setData('accepted', view.accepted.map((c) => point(c, { pin: c.pin, label: c.label })));
        setData('rejected', view.rejected.map((c) => point(c, { pin: c.pin, label: c.label })));
        fit([...(view.subject ? [view.subject] : []), ...view.accepted]);
      }),
    showListings: (rows) =>
      after(() => {
        setData('listings', rows.map((r) => point(r, { id: r.id, price: r.price, percentile: r.percentile, confidence: r.confidence })));
        fit(rows);
      }),
  };
}
