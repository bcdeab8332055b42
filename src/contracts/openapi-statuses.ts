// The error statuses each REST operation can actually answer, derived from what the http layer does on its path
// (http/doors.ts, http/errors.ts, http/drain.ts, auth/authorize.ts) rather than listed for every operation alike:
// - 400 validation_failed: every REST input is strict (an unknown query key is refused), so every operation;
// - 401 unauthorized: a malformed, unknown or revoked key is refused everywhere, reads included; a missing key where
//   one is needed; the operator secret on operator routes;
// - 403 forbidden_scope where a scope is required; forbidden_host on the guarded event stream (Host/Origin guard);
// - 404 property_not_found where the input names a property by id or address;
// - 413/415 where there is a body; 429 everywhere but /mcp (the rate-limit middleware); 408 and 431 from Node's HTTP
//   server (http/http-server.ts) on any request; 503 shutting_down from the drain on any request, and the valuation
//   pool and snapshot errors.
// No 405 (the documented method is the allowed one) and no 501 (the served build has its engine).
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { DOORS } from '../registry/groups/doors.js';
import type { Operation } from './operations.js';

const ANON = `${AUTH_LIMITS.v.anon_calls_per_window} calls per ${AUTH_LIMITS.v.anon_window_ms / 1000} s per IP`;

type Rule = { status: string; applies: (op: Operation) => boolean; text: (op: Operation) => string };

/** Keys of an object input (a refined object keeps its shape in zod 4). */
const inputKeys = (op: Operation): string[] => Object.keys((op.input as { shape?: object }).shape ?? {});
const SCOPED = new Set(['underwrite', 'write-state', 'webhooks']);
/** The owner's self-serve key operations (src/auth/owner-keys.ts decides their 403 and 404). */
const isKeyManagement = (op: Operation): boolean => op.rest!.path.startsWith('/api/me/keys');

const RULES: Rule[] = [
  {
    status: '400',
    applies: () => true,
    text: (op) => {
      const codes = ['validation_failed'];
      if (inputKeys(op).includes('cursor')) codes.push('invalid_cursor');
      if (inputKeys(op).includes('channels')) codes.push('webhook_url_refused');
      return `${codes.join(', ')}: ${op.rest!.from === 'body' ? 'the body' : 'a query parameter'} is unknown, missing, malformed or out of bounds`;
    },
  },
  {
    status: '401',
    applies: () => true,
    text: (op) =>
      op.scope === 'operator' ? 'unauthorized: the operator secret (Bearer WRITE_SECRET) is missing or wrong'
        : op.scope === 'read' ? 'unauthorized: the Authorization header carries a malformed, unknown or revoked key (no key is needed here)'
          : 'unauthorized: an API key is needed, or the one sent is malformed, unknown or revoked',
  },
  { status: '403', applies: (op) => SCOPED.has(op.scope), text: (op) => `forbidden_scope: the key lacks scope ${op.scope}` },
  { status: '403', applies: (op) => isKeyManagement(op), text: () => 'forbidden_scope: presented through an OAuth access token rather than as an API key, or a scope the presenting key lacks (a key gives out only scopes it holds)' },
  { status: '403', applies: (op) => op.rest!.produces === 'sse', text: () => 'forbidden_host: Host or Origin not in the allowlist (DNS-rebinding protection)' },
  { status: '404', applies: (op) => inputKeys(op).includes('property_id') || inputKeys(op).includes('address'), text: () => 'property_not_found: no parcel or listing matches the property id or address' },
  { status: '404', applies: (op) => inputKeys(op).includes('key_id'), text: () => 'not_found: none of your keys has that id (another owner\'s key is answered the same way)' },
  { status: '409', applies: (op) => op.id === 'create_my_key', text: () => 'key_limit_reached: you already hold the most active keys allowed; revoke one first' },
  { status: '409', applies: (op) => op.id === 'rotate_my_key', text: () => 'key_not_rotatable: the key is revoked, or an OAuth consent minted it (revoke it instead)' },
  { status: '408', applies: () => true, text: () => `request_timeout: the request (headers within ${DOORS.v.headers_timeout_ms / 1000} s, all of it within ${DOORS.v.request_timeout_ms / 1000} s) did not arrive whole; the connection is closed` },
  { status: '413', applies: (op) => op.rest!.from === 'body', text: () => 'payload_too_large: the body exceeds the size limit' },
  { status: '415', applies: (op) => op.rest!.from === 'body', text: () => 'unsupported_media_type: the body must be application/json' },
  { status: '429', applies: () => true, text: () => `rate_limited: anonymous callers get ${ANON}; a key has its own token bucket; see Retry-After` },
  { status: '431', applies: () => true, text: () => 'request_header_too_large: the request line (query included) and headers exceed 16 KiB' },
  { status: '503', applies: () => true, text: () => 'shutting_down (the service is draining), or, where the operation values, pool_queue_full, pool_timeout, worker_crashed, corpus_unavailable or snapshot_unverified; see Retry-After' },
];

/** Error statuses of one operation with their descriptions (two 403 causes share one entry). */
export function errorStatusesOf(op: Operation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of RULES) if (r.applies(op)) out[r.status] = out[r.status] ? `${out[r.status]}; or ${r.text(op)}` : r.text(op);
  return out;
}
