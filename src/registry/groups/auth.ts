// Keys, scopes, rate limits, audit retention, the sync stream and stored user state: every hand-set number of auth/
// and events/, and the page sizes of the private endpoints that read that state.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md, Authentication / Limits';
const ENG = 'engineering choice (issue 7), documented in src/auth and src/events';
const KEYS = 'engineering choice (issue 16 item 2, self-serve keys), documented in src/auth/owner-keys.ts and README "Your keys"';
const OWNER = 'engineering choice (issue 13, one owner), documented in src/events and src/app/private-ops.ts';

export const AUTH_LIMITS = defineGroup({
  name: 'auth_limits',
  version: '1.3.0',
  owner: 'auth',
  entries: {
    anon_calls_per_window: c(30, 'calls', 'anonymous callers: 30 calls per minute per client IP', SPEC),
    anon_window_ms: c(60_000, 'ms', 'the anonymous limit is counted over any sliding 60 s window', SPEC),
    key_default_rpm: c(120, 'calls per minute', 'default key rpm_limit: the spec only says "higher than anonymous"; 4x the anonymous 30/min', ENG),
    key_max_rpm: c(100_000, 'calls per minute', 'upper bound accepted for rpm_limit at key creation (guards against typos)', ENG),
    limiter_max_entries: c(50_000, 'entries', 'bound on tracked IPs/keys in the in-memory limiter; ~30 timestamps each, ~12 MB worst case', ENG),
    limiter_evict_to_frac: c(0.9, 'fraction of limiter_max_entries', 'when full, evict least-recently-used subjects down to 90% at once so eviction cost is amortised', ENG),
    key_id_bytes: c(6, 'bytes', 'key id = 6 random bytes as 12 hex chars: a lookup handle, not a secret', ENG),
    key_secret_bytes: c(32, 'bytes', '256-bit secret; with this entropy a single SHA-256 is not brute-forceable, so no slow KDF', 'NIST SP 800-63B 5.1.1.2 (KDF needed for low-entropy secrets only)'),
    max_authorization_header_chars: c(512, 'characters', 'longer Authorization headers are rejected before any parsing or hashing', ENG),
    audit_batch_ms: c(250, 'ms', 'audit and metering rows are written in one transaction per quarter second instead of one per call; at most this much is lost if the process is killed', ENG),
    audit_batch_max_records: c(1_000, 'records', 'a batch is written early once it holds this many audit records, bounding its memory', ENG),
    audit_sweep_interval_hours: c(24, 'hours', 'rows past the retention window are removed at start-up and once a day (retention is counted in months, so a daily sweep keeps it to the day)', ENG),
    audit_retention_months: c(12, 'months', 'per-key audit records and metering rows are kept 12 months', SPEC),
    analytics_max_days: c(366, 'days', 'GET /api/admin/analytics?days= upper bound: the retention window', SPEC),
    sse_heartbeat_ms: c(15_000, 'ms', 'SSE comment heartbeat keeps proxies from closing an idle stream (most idle timeouts are 30-60 s)', ENG),
    sse_replay_max: c(1_000, 'events', 'at most the last 1,000 stored records are replayed on (re)connect', ENG),
    sse_max_buffered_bytes: c(1_048_576, 'bytes', 'a client this far behind is disconnected; it resumes with Last-Event-ID instead of growing memory', ENG),
    sse_replay_max_bytes: c(1_048_576, 'bytes', 'a (re)connect replays at most this much (the newest records that fit): no more than a live client may fall behind (sse_max_buffered_bytes); one anonymous connect used to replay 93 MB', OWNER),
    sse_replay_scan_max: c(10_000, 'records', 'a replay examines at most this many stored records for ones the caller may see, so a connect costs bounded work when most records are another owner\'s', OWNER),
    favorite_payload_max_bytes: c(16_384, 'bytes of JSON', 'a favorite payload is the caller\'s annotation of a property; 16 KiB holds a whole listing row (about 4 KB) several times over and keeps 1,000 replayed records near 16 MB at worst', OWNER),
    favorite_payload_max_depth: c(16, 'levels of nesting', 'deeper payloads are refused as input, before the store encoder recurses through them', OWNER),
    preset_name_max_chars: c(120, 'characters', 'preset display name maximum length (same as alerts max_profile_name_chars)', OWNER),
    state_page_default: c(25, 'records', 'GET /api/state page size when limit is omitted (the inventory page default)', 'service-spec.md, Limits (inventory page size)'),
    state_page_max: c(100, 'records', 'GET /api/state largest page (the inventory page maximum)', 'service-spec.md, Limits (inventory page size)'),
    deals_page_default: c(10, 'deals', 'GET /api/deals page size when limit is omitted: each deal may need a valuation (the search_deals default)', 'service-spec.md, Limits (search_deals limit default)'),
    deals_page_max: c(25, 'deals', 'GET /api/deals largest page: at most 25 valuations per request keeps one call within a few seconds on the worker pool', OWNER),
    owner_max_active_keys: c(20, 'keys', 'unrevoked keys one owner may hold through the self-serve API (issue 16): each key has its own rate bucket, so an owner cannot multiply their limit without bound; 20 covers a key per device and client', KEYS),
    key_label_max_chars: c(100, 'characters', 'a key label names a device or client in the owner\'s list; 100 characters is a long name', KEYS),
    key_audit_page_default: c(100, 'records', 'GET /api/me/keys/audit records per answer when limit is omitted, newest first', KEYS),
    key_audit_page_max: c(1_000, 'records', 'GET /api/me/keys/audit largest answer: the audit scan stays bounded per request', KEYS),
    note_body_max_chars: c(4_000, 'characters', 'add_note body maximum length', SPEC),
    user_state_key_max_chars: c(256, 'characters', 'property_id, address and preset id become part of an LMDB key; LMDB refuses keys over 1,978 bytes, and 256 chars x 4 UTF-8 bytes + prefix stays under it, so an over-long value is a 400, never a store error', 'lmdb-js maximum key size (1978 bytes)'),
  },
});
