// The map's style: its GeoJSON sources and layers, no basemap tiles, no glyphs, no sprites (nothing outside the
// service; no text layers, which would need a glyph server). Colours are ours: one sequential ramp for tract signals
// and listing percentiles, a neutral grey hatch-free fill for "no data" and "unscored" (never the ramp's 0 colour).
import type { ExpressionSpecification, LayerSpecification, StyleSpecification } from 'maplibre-gl';
import type { Strategy } from '../../contracts/common.js';
import type { TractMapSignal as Signal } from '../../contracts/geo.js';

export type { Signal, Strategy };
/** The contract's TRACT_MAP_SIGNALS (type-checked against it; the contract module itself would bundle zod). */
export const SIGNALS = ['flip_score', 'brrrr_score', 'hold_score', 'house_hack_score', 'effective_tax_rate', 'section8_gap'] as const satisfies readonly Signal[];
export const SIGNAL_LABELS: Record<Signal, string> = {
  flip_score: 'Flip location score', brrrr_score: 'BRRRR location score', hold_score: 'Hold location score',
  house_hack_score: 'House-hack location score', effective_tax_rate: 'Effective tax rate', section8_gap: 'Section 8 gap (USD/month)',
};
export const STRATEGIES = ['flip', 'brrrr', 'hold', 'house_hack'] as const satisfies readonly Strategy[];

/** Low to high: pale yellow to dark blue (a colour-blind-safe sequential ramp, our own stops). */
export const RAMP = ['#ffffcc', '#a1dab4', '#41b6c4', '#2c7fb8', '#253494'] as const;
export const NO_DATA = '#bdbdbd';
export const HIGHLIGHT = '#e31a1c';
export const FAVORITE = '#ff7f00';

export const SOURCES = { tracts: 'tracts', neighborhoods: 'neighborhoods', townships: 'townships', listings: 'listings', favorites: 'favorites', evidence: 'evidence' } as const;
const EMPTY = { type: 'FeatureCollection' as const, features: [] };

/** A ramp over [lo, hi] of the number at `get`, NO_DATA where it is not a number (null: no data, never 0). */
export function rampOf(get: ExpressionSpecification, lo: number, hi: number): ExpressionSpecification {
  const span = hi > lo ? hi - lo : 1;
  const stops = RAMP.flatMap((c, i) => [lo + (span * i) / (RAMP.length - 1), c]);
  return ['case', ['==', ['typeof', get], 'number'], ['interpolate', ['linear'], get, ...stops] as unknown as ExpressionSpecification, NO_DATA];
}

/** The listing's percentile for a strategy lives in a flat property (nested objects do not survive GeoJSON tiling). */
export const percentileKey = (s: Strategy): string => `p_${s}`;

export function baseStyle(): StyleSpecification {
  const layers: LayerSpecification[] = [
    { id: 'background', type: 'background', paint: { 'background-color': '#f4f4f0' } },
    { id: 'tracts-fill', type: 'fill', source: SOURCES.tracts, paint: { 'fill-color': NO_DATA, 'fill-opacity': 0.75 } },
    { id: 'tracts-line', type: 'line', source: SOURCES.tracts, paint: { 'line-color': '#ffffff', 'line-width': 0.4 } },
    { id: 'neighborhoods-line', type: 'line', source: SOURCES.neighborhoods, paint: { 'line-color': '#636363', 'line-width': 0.6, 'line-dasharray': [2, 2] } },
    { id: 'townships-line', type: 'line', source: SOURCES.townships, paint: { 'line-color': '#252525', 'line-width': 1.6 } },
    {
      id: 'listings', type: 'circle', source: SOURCES.listings,
      paint: {
        'circle-color': NO_DATA,
        'circle-radius': ['case', ['boolean', ['feature-state', 'highlighted'], false], 9, 5],
        'circle-stroke-color': ['case', ['boolean', ['feature-state', 'highlighted'], false], HIGHLIGHT, '#252525'],
        'circle-stroke-width': ['case', ['boolean', ['feature-state', 'highlighted'], false], 3, 1],
      },
    },
    { id: 'favorites', type: 'circle', source: SOURCES.favorites, paint: { 'circle-color': 'rgba(0,0,0,0)', 'circle-radius': 11, 'circle-stroke-color': FAVORITE, 'circle-stroke-width': 3 } },
    {
      id: 'evidence', type: 'circle', source: SOURCES.evidence,
      paint: {
        'circle-radius': ['match', ['get', 'role'], 'subject', 9, 6],
        'circle-color': ['match', ['get', 'role'], 'subject', '#000000', 'accepted', '#1a9641', '#d7191c'],
        'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1.5,
      },
    },
  ];
  const sources = Object.fromEntries(Object.values(SOURCES).map((s) => [s, { type: 'geojson', data: EMPTY, ...(s === SOURCES.listings ? { promoteId: 'listing_id' } : {}) }]));
  return { version: 8, sources: sources as StyleSpecification['sources'], layers };
}
