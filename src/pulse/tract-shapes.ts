// The map's tract layer: every mapped tract's polygon (from the generated/ingested tracts.geojson the store keeps)
// with the location signals the map shades by, rounded as the tract list and report round them. A tract whose
// signals are unsupported by its sales keeps null there (the map draws "no data"), never 0.
import type { TractShapes } from '../contracts/geo.js';
import { WEB_MAP } from '../registry/groups/web-map.js';
import type { PolygonGeometry } from '../store/tract-locator.js';
import type { Store } from '../store/store.js';
import { round, tractSignalsFor } from './index.js';

type Geometry = TractShapes['features'][number]['geometry'];
const SCALE = 10 ** WEB_MAP.v.geojson_coord_decimals;
const ringOf = (ring: ReadonlyArray<readonly number[]>): number[][] => ring.map((p) => p.map((x) => Math.round(x * SCALE) / SCALE));

/** The polygon with its vertices rounded for the wire (the store's own polygon is untouched). */
function rounded(g: PolygonGeometry): Geometry {
  return g.type === 'Polygon'
    ? { type: 'Polygon', coordinates: g.coordinates.map(ringOf) }
    : { type: 'MultiPolygon', coordinates: g.coordinates.map((poly) => poly.map(ringOf)) };
}

/** GET /api/geo/tracts: a FeatureCollection of the store's tracts (sorted by GEOID) with their signals. */
export function tractShapes(store: Store): TractShapes {
  const set = tractSignalsFor(store);
  const features = store.getTracts().map((t) => {
    const s = set.byGeoid.get(t.geoid);
    return {
      type: 'Feature' as const,
      properties: {
        geoid: t.geoid,
        county: t.county,
        muni: t.muni,
        flip_score: s ? round(s.scores.flip, 1) : null,
        brrrr_score: s ? round(s.scores.brrrr, 1) : null,
        hold_score: s ? round(s.scores.hold, 1) : null,
        house_hack_score: s ? round(s.scores.house_hack, 1) : null,
        effective_tax_rate: s ? round(s.effective_tax_rate, 5) : null,
        section8_gap: s ? round(s.section8_gap, 0) : null,
      },
      geometry: rounded(t.polygon),
    };
  });
  return { type: 'FeatureCollection', vintage: store.tractList().vintage, signals_as_of: set.asOf, features };
}
