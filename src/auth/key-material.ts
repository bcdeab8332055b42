// What every key store shares, whichever backend holds the records (LMDB src/auth/keys.ts, PostgreSQL
// src/store/pg/keys.ts): the token format, minting a key, the rpm check, and the verdict on a presented Bearer value.
// Format `avm_<12 hex key id>_<43 char base64url secret>`; only SHA-256(secret) is stored (see AUTH_LIMITS.key_secret_bytes).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors/app-error.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import type { Scope } from './scopes.js';

export const KEY_PREFIX = 'avm_';
const KEY_ID_HEX_CHARS = AUTH_LIMITS.v.key_id_bytes * 2;
const SECRET_B64URL_CHARS = Math.ceil((AUTH_LIMITS.v.key_secret_bytes * 4) / 3);
const TOKEN_RE = new RegExp(`^${KEY_PREFIX}([0-9a-f]{${KEY_ID_HEX_CHARS}})_([A-Za-z0-9_-]{${SECRET_B64URL_CHARS}})$`);
// RFC 6750 section 2.1: credentials = "Bearer" 1*SP b64token; the scheme name is case-insensitive (RFC 7235).
const BEARER_RE = /^Bearer +(\S+)$/i;
/** Compared against when the key id is unknown, so an unknown id costs the same work as a wrong secret. */
const DUMMY_DIGEST = createHash('sha256').update('avm-unknown-key').digest();

/** The stored record. `hash` is hex SHA-256 of the secret's base64url text and never leaves the key stores. */
export type StoredKey = {
  id: string;
  hash: string;
  scopes: Scope[];
  rpm_limit: number;
  created_at: string;
  rotated_from: string | null;
  revoked_at: string | null;
  label: string | null;
  /**
   * The key id at the root of this key's rotation chain: the owner of every user-state record the key writes, so
   * rotating a key keeps its owner's state. Absent on keys stored before it existed (then walked from rotated_from).
   */
  owner_id?: string;
};

/** A key as every other module sees it: everything except the hash; owner_id always resolved. */
export type ApiKey = Omit<StoredKey, 'hash'>;

/** `invalid_token`: an OAuth access token unknown or expired; `wrong_resource`: one issued for another resource (RFC 8707). */
export type VerifyFailure = 'missing' | 'too_long' | 'not_bearer' | 'malformed' | 'unknown_key' | 'revoked' | 'bad_secret' | 'invalid_token' | 'wrong_resource';
export type VerifyResult = { ok: true; key: ApiKey } | { ok: false; reason: VerifyFailure };

export type IssuedKey = { plaintext: string; key: ApiKey };

/** The key id and secret of a Bearer header, or why it is not one; never throws. */
export function parseBearer(header: unknown): { id: string; secret: string } | { ok: false; reason: VerifyFailure } {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, reason: 'missing' };
  if (value.length > AUTH_LIMITS.v.max_authorization_header_chars) return { ok: false, reason: 'too_long' };
  const bearer = BEARER_RE.exec(value.trim());
  if (!bearer) return { ok: false, reason: 'not_bearer' };
  const parts = TOKEN_RE.exec(bearer[1]);
  if (!parts) return { ok: false, reason: 'malformed' };
  return { id: parts[1], secret: parts[2] };
}

/** The verdict on `secret` presented for the stored record `rec` (undefined: unknown id), in constant time. */
export function verdictOf(rec: StoredKey | undefined, secret: string, view: (rec: StoredKey) => ApiKey): VerifyResult {
  const presented = sha256(secret);
  const stored = rec && /^[0-9a-f]{64}$/.test(rec.hash) ? Buffer.from(rec.hash, 'hex') : DUMMY_DIGEST;
  const equal = timingSafeEqual(presented, stored);
  if (!rec) return { ok: false, reason: 'unknown_key' };
  if (!equal) return { ok: false, reason: 'bad_secret' };
  if (rec.revoked_at) return { ok: false, reason: 'revoked' };
  return { ok: true, key: view(rec) };
}

/** A new key record and its plaintext; `taken(id)` says whether an id is already stored. */
export async function mintKey(
  taken: (id: string) => boolean | Promise<boolean>,
  o: { scopes: Scope[]; rpmLimit: number; label: string | null; rotatedFrom: string | null; ownerId: string | null; nowMs: number },
): Promise<{ plaintext: string; stored: StoredKey }> {
  let id = randomBytes(AUTH_LIMITS.v.key_id_bytes).toString('hex');
  // 48-bit ids: a collision is astronomically rare, but a silent overwrite of another key would be a security bug.
  while (await taken(id)) id = randomBytes(AUTH_LIMITS.v.key_id_bytes).toString('hex');
  const secret = randomBytes(AUTH_LIMITS.v.key_secret_bytes).toString('base64url');
  const stored: StoredKey = {
    id,
    hash: sha256(secret).toString('hex'),
    scopes: o.scopes,
    rpm_limit: o.rpmLimit,
    created_at: new Date(o.nowMs).toISOString(),
    rotated_from: o.rotatedFrom,
    revoked_at: null,
    label: o.label,
    owner_id: o.ownerId ?? id,
  };
  return { plaintext: `${KEY_PREFIX}${id}_${secret}`, stored };
}

export function checkRpm(rpm: number | undefined): number {
  if (rpm === undefined) return AUTH_LIMITS.v.key_default_rpm;
  if (!Number.isInteger(rpm) || rpm < 1 || rpm > AUTH_LIMITS.v.key_max_rpm) {
    throw new AppError('validation_failed', `rpm_limit must be an integer from 1 to ${AUTH_LIMITS.v.key_max_rpm}`);
  }
  return rpm;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
