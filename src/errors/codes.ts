// The closed error taxonomy: every error code the service can return, with its HTTP status.
// Published as /api/spec/error-taxonomy.json. Refusals and suppressions are NOT errors (they are contract values).

export const ERROR_CODES = {
  validation_failed: { status: 400, description: 'The request does not match the operation schema (extra keys, wrong type, out of bounds).' },
  units_required: { status: 400, description: 'Unit count unknown for underwriting and no matching listing supplies it.' },
  price_required: { status: 400, description: 'A positive price is required and no matching listing supplies it.' },
  invalid_geoid: { status: 400, description: 'A tract id must be an 11-digit census tract GEOID.' },
  invalid_cursor: { status: 400, description: 'The pagination cursor is malformed or expired.' },
  webhook_url_refused: { status: 400, description: 'The webhook URL is not https/http, or resolves to a private, link-local or loopback address.' },
  unauthorized: { status: 401, description: 'A private endpoint was called without a valid key.' },
  forbidden_scope: { status: 403, description: 'The key lacks the scope this operation requires.' },
  csrf_rejected: { status: 403, description: 'A form of this service (the OAuth consent page) was submitted without its form token, or from another origin.' },
  forbidden_host: { status: 403, description: 'Host or Origin header not in the allowlist (DNS-rebinding protection).' },
  not_found: { status: 404, description: 'No such resource or route.' },
  property_not_found: { status: 404, description: 'No parcel or listing matches the property id or address.' },
  tract_not_found: { status: 404, description: 'No mapped tract has that GEOID.' },
  key_limit_reached: { status: 409, description: 'The owner already holds the most active API keys allowed (auth_limits.owner_max_active_keys); revoke one first.' },
  key_not_rotatable: { status: 409, description: 'The key cannot be rotated: it is revoked, or an OAuth consent minted it (revoke that one and let its client sign in again).' },
  method_not_allowed: { status: 405, description: 'The route exists but not for this HTTP method.' },
  request_timeout: { status: 408, description: 'The request did not arrive whole within the time limit; the connection is closed (recorded in audit and metering; the client gets this error body with Connection: close).' },
  request_header_too_large: { status: 431, description: 'The request line and headers exceed the HTTP server\'s size limit (16 KiB, Node\'s max header size); the connection is closed.' },
  payload_too_large: { status: 413, description: 'The request body exceeds the size limit.' },
  unsupported_media_type: { status: 415, description: 'The request body must be application/json.' },
  rate_limited: { status: 429, description: 'Too many calls: 30 per minute per IP anonymously, or the key token bucket is empty. Retry after the Retry-After seconds.' },
  client_closed_request: { status: 499, description: 'The client closed the connection before its request arrived whole; nothing is sent (recorded in audit and metering only, the 499 of nginx).' },
  pool_queue_full: { status: 503, description: 'The valuation worker pool queue is full; retry after the Retry-After seconds.' },
  pool_timeout: { status: 503, description: 'A valuation task exceeded its time limit.' },
  worker_crashed: { status: 503, description: 'A valuation worker stopped unexpectedly; the task was not completed.' },
  shutting_down: { status: 503, description: 'The service is draining before it stops: the request was not started (the connection is closed); retry after the Retry-After seconds, on another instance or after the restart.' },
  corpus_unavailable: { status: 503, description: 'No sales snapshot has been ingested yet.' },
  snapshot_unverified: { status: 503, description: 'The current sales snapshot does not match its stored sha256; nothing is valued from it until a new ingest replaces it.' },
  shared_store_unavailable: { status: 503, description: 'The shared state store (PostgreSQL, AVM_DATABASE_URL) did not answer: the key could not be checked or the state not read or written. A write cut this way may or may not have been stored (read it back); retry after the Retry-After seconds.' },
  store_damaged: { status: 503, description: 'The LMDB data file is damaged or shorter than its header records; the store is not opened.' },
  opendata_unreachable: { status: 503, description: 'The open-data comp source could not be reached.' },
  kernel_error: { status: 500, description: 'The valuation kernel returned an error code.' },
  ingest_invalid_file: { status: 422, description: 'An input file is malformed (missing column, bad number, bad date, bad PIN).' },
  not_implemented: { status: 501, description: 'The operation is declared but its engine has not landed in this build; no result is made up.' },
  internal_error: { status: 500, description: 'Unexpected failure; the request id identifies it in the log.' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_TAXONOMY_VERSION = '1.7.0';
