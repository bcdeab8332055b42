// Hand-set numbers of the two doors (REST and MCP): page sizes, input caps, the HTTP server's time and connection
// limits, the shutdown drain and the request-observation bounds (request id, latency buckets). The MCP door holds no
// sessions (both protocol eras are served statelessly), so it has no session bounds.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md, Endpoints / Limits';
const ENG = 'engineering: bounds memory and work per caller';

export const DOORS = defineGroup({
  name: 'doors',
  version: '2.3.0',
  owner: 'http-mcp',
  entries: {
    highlight_max_ids: c(200, 'ids', 'highlight_properties ids cap: at most one page of listings', ENG),
    statuses_max: c(20, 'statuses', 'update_map_filters statuses cap', ENG),
    map_zoom_range: c([0, 22], 'web-map zoom levels', 'fly_to_location zoom bounds: 0 world to 22 building (slippy-map convention)', 'OpenStreetMap zoom levels'),
    top_tracts_count: c(5, 'tracts', 'search_deals also returns this many top-scoring tracts', ENG),
    listing_match_coord_decimals: c(5, 'decimal places', 'a listing matches a lat/lon subject when both agree to 5 decimals (about 1 m)', ENG),
    text_max_chars: c(200, 'characters', 'address / geography / id text cap on inputs', ENG),
    cursor_max_chars: c(512, 'characters', 'opaque pagination cursor length cap', ENG),
    json_body_max_bytes: c(1_048_576, 'bytes', 'largest JSON request body accepted (REST and MCP)', ENG),
    json_max_depth: c(32, 'levels of nested arrays/objects', 'deepest JSON request body accepted (REST and MCP); the deepest real input (a JSON-RPC tools/call carrying preset assumptions or strategy weights) nests 6; stored or re-encoded caller JSON 2,000 deep overflowed the stack', ENG),
    request_timeout_ms: c(20_000, 'ms', 'a request (headers and body) must arrive whole within this, else Node answers 408 and closes: a trickled partial body cannot hold a connection; 1 MiB (json_body_max_bytes) at 512 kbit/s takes 16 s', ENG),
    headers_timeout_ms: c(10_000, 'ms', 'request headers must arrive within this (slow-header attacks); real headers arrive in one packet', ENG),
    connections_check_interval_ms: c(1_000, 'ms', 'how often Node checks the two timeouts above; its default 30 s would let an expired request live 30 s longer', 'Node http.createServer connectionsCheckingInterval'),
    drain_timeout_ms: c(25_000, 'ms', 'after SIGTERM/SIGINT, requests in flight get this long to finish before the ones still running are answered 503 shutting_down; 5 s under the 30 s grace period a container orchestrator gives before SIGKILL, left for closing the pool, audit, jobs and store', 'Kubernetes Pod termination: terminationGracePeriodSeconds default 30 s'),
    drain_retry_after_s: c(1, 's', 'Retry-After on a 503 shutting_down: another instance (or this one restarted) can take the retry at once', ENG),
    request_id_max_chars: c(128, 'characters', 'an incoming X-Request-Id longer than this (or with characters outside A-Z a-z 0-9 . _ : -) is replaced by a generated one: it is echoed in headers, logs and audit', ENG),
    latency_buckets_s: c([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], 's', 'request latency histogram bucket bounds: prom-client defaults (5 ms to 10 s) plus 30 s, the default worker task timeout (AVM_TASK_TIMEOUT_MS)', 'prom-client Histogram default buckets'),
    comp_measure_decimals: c(6, 'decimal places', 'dist_mi and similarity of an accepted comp and the comps\' dispersion (fsd, percent) in answers and in the inputs hash: 1e-6 mi is 1.6 mm. The kernel computes them from unit vectors of sines and cosines, and the native addon (the system libm) and WASM (Rust\'s libm) differ in the last bit of those, which the subtraction of two nearby unit vectors magnifies to ~1e-13 relative: unrounded, the same valuation carried a different inputs_hash on a replica with the addon than on one without (223 of 400 default-corpus subjects). Six decimals are as exact as a parcel point, and agree across front-ends except for a value within ~1e-13 of a rounding boundary (~1e-7 per number)', 'issue 17 (one answer across kernel front-ends); measured this session'),
    comp_coord_decimals: c(5, 'decimal places', 'lat/lon of an accepted or rejected comp in answers: 1e-5 degree is about 1.1 m north-south (0.8 m east-west at 41.8N), finer than a parcel point locates a house and enough to draw a comp at building zoom; more digits would only be noise in every answer', ENG),
    max_connections: c(512, 'connections', 'open sockets at once (keep-alive, SSE map clients and MCP streams included); beyond it new connections are dropped. Each may hold sse_max_buffered_bytes (1 MiB) of stream backlog, so this bounds that at 0.5 GiB, and stays under the common 1,024 open-file soft limit with room for the store, workers and webhooks', ENG),
  },
});
