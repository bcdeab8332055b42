// Alerts: webhook delivery, signature, matcher dedupe and digest. Every hand-set number of src/alerts/.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md, Events (Signature, Delivery semantics) and Limits';
const ENG = 'engineering choice (issue 8), documented in src/alerts';

export const ALERTS = defineGroup({
  name: 'alerts',
  version: '1.0.0',
  owner: 'alerts',
  entries: {
    webhook_timeout_ms: c(5_000, 'ms', 'each delivery attempt (connect + response headers) is abandoned after 5 s', SPEC),
    max_attempts: c(3, 'attempts', 'up to 3 inline attempts per delivery round; the 3rd failure dead-letters', SPEC),
    backoff_ms: c([200, 400, 800], 'ms', 'wait before retry k is backoff_ms[k-1]; with 3 attempts only 200 and 400 are waited (800 would precede a 4th)', SPEC),
    replay_window_sec: c(300, 's', 'receivers reject a signature timestamp more than 300 s from now (past or future)', SPEC),
    max_signature_header_chars: c(512, 'characters', 'longer timestamp/signature headers are rejected before parsing or hashing', ENG),
    min_secret_chars: c(16, 'characters', 'webhook signing secret minimum length (same floor as WRITE_SECRET in config.ts)', ENG),
    max_secret_chars: c(256, 'characters', 'webhook signing secret maximum length: bounds stored state; 256 chars exceeds any HMAC key need', ENG),
    max_url_chars: c(2_048, 'characters', 'webhook URL maximum length (common browser/proxy URL limit)', ENG),
    diagnostic_body_chars: c(200, 'characters', 'at most this much of a failing response body is kept in a diagnostic', ENG),
    price_bucket_frac: c(0.025, 'fraction of price', 'a price move re-alerts only when it crosses a new log bucket of width ln(1.025) AND moves >= 2.5% from the last alerted price; relative, so it means the same on a $60k and a $900k listing (a fixed $5,000 would be 8% of one and 0.6% of the other)', ENG),
    digest_top_n: c(10, 'matches', 'a digest carries at most the top 10 matches (same as the search_deals default limit)', 'service-spec.md, Limits (search_deals limit default 10)'),
    digests_per_day: c(1, 'pushes per profile per UTC day', 'at most one push per profile per day; days are UTC calendar days (the listings run is at 13:00 UTC)', SPEC),
    telegram_max_text_chars: c(4_096, 'characters', 'Telegram sendMessage text limit; longer digests are truncated with a marker', 'Telegram Bot API, sendMessage: text 1-4096 characters'),
    delivery_concurrency: c(4, 'alerts in flight', 'pending alerts are delivered by at most 4 concurrent workers so one slow receiver (15 s worst case) cannot stall every other profile', ENG),
    max_profiles_per_owner: c(100, 'profiles', 'bounds per-key stored state and matcher work (profiles x listings)', ENG),
    max_profile_id_chars: c(64, 'characters', 'a caller-chosen profile id is 1-64 of A-Z a-z 0-9 _ -: keeps the LMDB key (owner prefix + id) short and URL-safe', ENG),
    max_profile_name_chars: c(120, 'characters', 'profile display name maximum length: bounds stored state and digest headers', ENG),
    claim_lease_ms: c(30_000, 'ms', 'a delivery claim lapses 30 s after its last recorded attempt; renewed by every attempt, whose worst case is one 5 s timeout plus one 400 ms backoff, so a live round never loses it, and a dead replica\'s claims are free within 30 s', 'engineering choice (issue 18), src/alerts/outbox-store.ts'),
    reclaim_interval_ms: c(10_000, 'ms', 'replicas on PostgreSQL sweep the outbox every 10 s for pending alerts nobody holds (enqueued elsewhere, or claimed by a replica that died)', 'engineering choice (issue 18), src/alerts/sweep.ts'),
    max_criteria_zips: c(200, 'ZIP codes', 'a profile narrows to at most 200 ZIPs (bounds stored state and matcher work; data/reference/zip_centroids.csv lists 208 Cook + Lake ZIPs, so a profile wanting nearly all omits zips)', ENG),
  },
});
