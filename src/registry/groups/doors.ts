// Hand-set numbers of the two doors (REST and MCP): page sizes, input caps and MCP session bounds.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md, Endpoints / Limits';
const ENG = 'engineering: bounds memory and work per caller';

export const DOORS = defineGroup({
  name: 'doors',
  version: '1.1.0',
  owner: 'http-mcp',
  entries: {
    highlight_max_ids: c(200, 'ids', 'highlight_properties ids cap: at most one page of listings', ENG),
    statuses_max: c(20, 'statuses', 'update_map_filters statuses cap', ENG),
    map_zoom_range: c([0, 22], 'web-map zoom levels', 'fly_to_location zoom bounds: 0 world to 22 building (slippy-map convention)', 'OpenStreetMap zoom levels'),
    top_tracts_count: c(5, 'tracts', 'search_deals also returns this many top-scoring tracts', ENG),
    listing_match_coord_decimals: c(5, 'decimal places', 'a listing matches a lat/lon subject when both agree to 5 decimals (about 1 m)', ENG),
    text_max_chars: c(200, 'characters', 'address / geography / id text cap on inputs', ENG),
    cursor_max_chars: c(512, 'characters', 'opaque pagination cursor length cap', ENG),
    mcp_max_sessions: c(256, 'sessions', 'live MCP sessions kept at once; the least recently used is closed beyond it', ENG),
    mcp_session_idle_ms: c(30 * 60_000, 'ms', 'an MCP session idle this long is closed', ENG),
    json_body_max_bytes: c(1_048_576, 'bytes', 'largest JSON request body accepted (REST and MCP)', ENG),
  },
});
