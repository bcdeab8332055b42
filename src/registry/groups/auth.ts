// Keys, scopes, rate limits, audit retention and the sync stream: every hand-set number of auth/ and events/.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md, Authentication / Limits';
const ENG = 'engineering choice (issue 7), documented in src/auth and src/events';

export const AUTH_LIMITS = defineGroup({
  name: 'auth_limits',
  version: '1.1.0',
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
    note_body_max_chars: c(4_000, 'characters', 'add_note body maximum length', SPEC),
    user_state_key_max_chars: c(256, 'characters', 'property_id, address and preset id become part of an LMDB key; LMDB refuses keys over 1,978 bytes, and 256 chars x 4 UTF-8 bytes + prefix stays under it, so an over-long value is a 400, never a store error', 'lmdb-js maximum key size (1978 bytes)'),
  },
});
