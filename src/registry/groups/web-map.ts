// Hand-set numbers of the open web map's server side (GET / and its GeoJSON layers).
import { c, defineGroup } from '../define.js';

export const WEB_MAP = defineGroup({
  name: 'web_map',
  version: '1.0.0',
  owner: 'http-mcp',
  entries: {
    geojson_coord_decimals: c(6, 'decimal places', 'tract polygon vertices are sent rounded to 6 decimals of a degree (about 0.1 m): far finer than a screen pixel at the map\'s deepest zoom over a tract, and it cut GET /api/geo/tracts from 1,248,317 to 1,053,068 bytes (-16%) on the test corpus', 'engineering: payload size'),
  },
});
