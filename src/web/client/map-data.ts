// Turning the service's answers into what the map draws, and the listing filters of update_map_filters as a MapLibre
// filter. The filter means what search_investment_inventory's filters mean (src/listings/inventory.ts): a minimum
// percentile of the strategy, a maximum list price, a minimum valuation confidence, and the listing statuses; a row
// without the value a filter tests (unscored, no confidence) does not pass that filter.
// The GeoJSON namespace for the server's tsconfig too (Node tests read this file through app-answers.ts).
/// <reference types="geojson" />
import type { FilterSpecification } from 'maplibre-gl';
import { STRATEGIES, percentileKey, type Signal, type Strategy } from './map-layers.js';

export type MapFilters = { strategy?: Strategy; min_percentile?: number; max_price?: number; min_confidence?: number; statuses?: string[] };

/** The fields of a GET /api/listings/chicago row the map reads. */
export type ListingRow = {
  listing_id: string; address: string; status?: string; price: number; lat?: number; lon?: number;
  percentiles?: Partial<Record<Strategy, number | null>> | null; valuation?: { arv_confidence?: number | null } | null;
};
export type ListingsBody = { listings: ListingRow[] };

const hasPosition = (r: ListingRow): r is ListingRow & { lat: number; lon: number } => typeof r.lat === 'number' && typeof r.lon === 'number';

/** Listings as points; per-strategy percentiles flattened to p_<strategy> (absent when unscored). */
export function listingsCollection(body: ListingsBody): GeoJSON.FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: body.listings.filter(hasPosition).map((r) => {
      const props: Record<string, string | number> = { listing_id: r.listing_id, address: r.address, price: r.price };
      if (r.status) props.status = r.status;
      const confidence = r.valuation?.arv_confidence;
      if (typeof confidence === 'number') props.confidence = confidence;
      for (const s of STRATEGIES) {
        const p = r.percentiles?.[s];
        if (typeof p === 'number') props[percentileKey(s)] = p;
      }
      return { type: 'Feature', properties: props, geometry: { type: 'Point', coordinates: [r.lon, r.lat] } };
    }),
  };
}

/** The favourites that name a listing on the map (by listing id), drawn at the listing. */
export function favoritesCollection(body: ListingsBody, ids: ReadonlySet<string>): GeoJSON.FeatureCollection {
  const features = listingsCollection(body).features.filter((f) => ids.has(String(f.properties?.listing_id)));
  return { type: 'FeatureCollection', features };
}

/** `key` is a number and at least `min`. Not ['to-number', …]: it turns a missing value (unscored) into 0. */
const atLeast = (key: string, min: number): unknown => ['case', ['==', ['typeof', ['get', key]], 'number'], ['>=', ['get', key], min], false];

/** The listing layer's filter; `['all']` (everything) when no filter is set. */
export function listingFilter(f: MapFilters): FilterSpecification {
  const key = percentileKey(f.strategy ?? 'flip');
  const tests: unknown[] = ['all'];
  if (f.min_percentile !== undefined) tests.push(atLeast(key, f.min_percentile));
  if (f.max_price !== undefined) tests.push(['<=', ['get', 'price'], f.max_price]);
  if (f.min_confidence !== undefined) tests.push(atLeast('confidence', f.min_confidence));
  if (f.statuses !== undefined) tests.push(['in', ['to-string', ['get', 'status']], ['literal', f.statuses.map((s) => s.toLowerCase())]]);
  return tests as FilterSpecification;
}

/** [min, max] of a numeric property over the features (null when no feature has a number there). */
export function numericRange(fc: GeoJSON.FeatureCollection, key: Signal): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const f of fc.features) {
    const v = f.properties?.[key];
    if (typeof v !== 'number') continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}
