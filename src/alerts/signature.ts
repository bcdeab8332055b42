// Webhook signatures: the spec's X-SVC headers, the Standard Webhooks headers beside them, and the receiver check.
// Never throws on attacker-controlled input: malformed headers are a { ok: false } value.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ALERTS } from '../registry/groups/alerts.js';

export type RawBody = string | Uint8Array;

export type SignatureHeaders = {
  'X-SVC-Timestamp': string;
  'X-SVC-Signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

const STANDARD_SECRET_PREFIX = 'whsec_';

function bodyBytes(rawBody: RawBody): Buffer {
  return typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
}

/** X-SVC-Signature hex: HMAC-SHA256 keyed with the secret's UTF-8 bytes over `${ts}.${rawBody}` (spec, Events/Signature). */
export function svcSignatureHex(rawBody: RawBody, secret: string, timestampSec: number): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestampSec}.`).update(bodyBytes(rawBody)).digest('hex');
}

/**
 * The Standard Webhooks key. A secret written `whsec_<base64>` is base64-decoded after the prefix (what stock
 * standardwebhooks libraries do); any other secret is used as its UTF-8 bytes (stock libraries: `format: 'raw'`).
 */
export function standardWebhookKey(secret: string): Buffer {
  if (secret.startsWith(STANDARD_SECRET_PREFIX)) {
    const decoded = Buffer.from(secret.slice(STANDARD_SECRET_PREFIX.length), 'base64');
    if (decoded.length > 0) return decoded;
  }
  return Buffer.from(secret, 'utf8');
}

/** webhook-signature value: `v1,<base64 HMAC-SHA256 over "${id}.${ts}.${body}">`. */
export function standardSignature(rawBody: RawBody, secret: string, messageId: string, timestampSec: number): string {
  const mac = createHmac('sha256', standardWebhookKey(secret)).update(`${messageId}.${timestampSec}.`).update(bodyBytes(rawBody)).digest('base64');
  return `v1,${mac}`;
}

/** All signature headers of one attempt. `messageId` is the alert's idempotency key, identical across retries. */
export function signAlert(rawBody: RawBody, secret: string, timestampSec: number, messageId: string): SignatureHeaders {
  const ts = String(Math.trunc(timestampSec));
  return {
    'X-SVC-Timestamp': ts,
    'X-SVC-Signature': `sha256=${svcSignatureHex(rawBody, secret, Math.trunc(timestampSec))}`,
    'webhook-id': messageId,
    'webhook-timestamp': ts,
    'webhook-signature': standardSignature(rawBody, secret, messageId, Math.trunc(timestampSec)),
  };
}

export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };
export type VerifyFailure =
  | 'missing_timestamp'
  | 'missing_signature'
  | 'malformed_timestamp'
  | 'malformed_signature'
  | 'header_too_long'
  | 'timestamp_out_of_window'
  | 'signature_mismatch';

/** Node's IncomingHttpHeaders, a fetch Headers-like record, or a plain object: names compared case-insensitively. */
export type HeaderBag = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function headerValue(headers: HeaderBag, name: string): string | string[] | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const v = (headers as { get(name: string): string | null }).get(name);
    return v === null ? undefined : v;
  }
  const bag = headers as Record<string, string | string[] | undefined>;
  const lower = name.toLowerCase();
  for (const key of Object.keys(bag)) if (key.toLowerCase() === lower) return bag[key];
  return undefined;
}

/** One header as a single string; a repeated header (array of more than one) is malformed, not "first wins". */
function singleHeader(headers: HeaderBag, name: string): string | undefined | 'repeated' {
  const v = headerValue(headers, name);
  if (Array.isArray(v)) return v.length === 1 && typeof v[0] === 'string' ? v[0] : v.length === 0 ? undefined : 'repeated';
  return typeof v === 'string' ? v : undefined;
}

const TIMESTAMP_RE = /^[0-9]{1,12}$/;
const SIGNATURE_RE = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Receiver check of X-SVC-Timestamp / X-SVC-Signature over the RAW request body (the bytes received, before any JSON
 * parse). `nowSec` is unix seconds. Accepts |now - ts| <= 300 s. Constant-time comparison; never throws.
 */
export function verifyAlertSignature(rawBody: RawBody, headers: HeaderBag, secret: string, nowSec: number): VerifyResult {
  try {
    const maxChars = ALERTS.v.max_signature_header_chars;
    const ts = singleHeader(headers, 'x-svc-timestamp');
    const sig = singleHeader(headers, 'x-svc-signature');
    if (ts === undefined) return { ok: false, reason: 'missing_timestamp' };
    if (sig === undefined) return { ok: false, reason: 'missing_signature' };
    if (ts.length > maxChars || sig.length > maxChars) return { ok: false, reason: 'header_too_long' };
    if (ts === 'repeated' || !TIMESTAMP_RE.test(ts.trim())) return { ok: false, reason: 'malformed_timestamp' };
    const m = sig === 'repeated' ? null : SIGNATURE_RE.exec(sig.trim());
    if (!m) return { ok: false, reason: 'malformed_signature' };
    const tsSec = Number(ts.trim());
    if (!Number.isFinite(nowSec) || Math.abs(nowSec - tsSec) > ALERTS.v.replay_window_sec) return { ok: false, reason: 'timestamp_out_of_window' };
    const expected = Buffer.from(svcSignatureHex(rawBody, secret, tsSec), 'hex');
    const given = Buffer.from(m[1], 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature_mismatch' };
    return { ok: true };
  } catch {
    // A hostile header object (getters that throw, odd types) must still yield a value, never an exception.
    return { ok: false, reason: 'malformed_signature' };
  }
}
