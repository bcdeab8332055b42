// API keys: issue (plaintext shown once), store hashed, rotate, revoke, list, and verify a Bearer header.
// Format `avm_<12 hex key id>_<43 char base64url secret>`; only SHA-256(secret) is stored (see AUTH_LIMITS.key_secret_bytes).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import { AppError } from '../errors/app-error.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { parseScopes, type Scope } from './scopes.js';

export const KEY_PREFIX = 'avm_';
const KEY_ID_HEX_CHARS = AUTH_LIMITS.v.key_id_bytes * 2;
const SECRET_B64URL_CHARS = Math.ceil((AUTH_LIMITS.v.key_secret_bytes * 4) / 3);
const TOKEN_RE = new RegExp(`^${KEY_PREFIX}([0-9a-f]{${KEY_ID_HEX_CHARS}})_([A-Za-z0-9_-]{${SECRET_B64URL_CHARS}})$`);
// RFC 6750 section 2.1: credentials = "Bearer" 1*SP b64token; the scheme name is case-insensitive (RFC 7235).
const BEARER_RE = /^Bearer +(\S+)$/i;
/** Compared against when the key id is unknown, so an unknown id costs the same work as a wrong secret. */
const DUMMY_DIGEST = createHash('sha256').update('avm-unknown-key').digest();

/** The stored record. `hash` is hex SHA-256 of the secret's base64url text and never leaves this module. */
type StoredKey = {
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

export type KeyStore = {
  /** `ownerId`: the owner a new key belongs to (an OAuth approval mints a key for the owner who approved); default itself. */
  createKey(input: { scopes: string | readonly string[]; rpmLimit?: number; label?: string; ownerId?: string }): Promise<IssuedKey>;
  /** New secret with the same scopes, limit and label; the old key is revoked in the same transaction. */
  rotateKey(id: string): Promise<IssuedKey>;
  /** Idempotent: revoking a revoked key keeps the first revocation time. */
  revokeKey(id: string): Promise<ApiKey>;
  listKeys(): ApiKey[];
  getKey(id: string): ApiKey | null;
  /** The owner (root key id of the rotation chain) of key `id`; `id` itself for an unknown key. */
  ownerIdOf(id: string): string;
  /** Never throws, whatever the header holds. */
  verifyBearer(authorizationHeader: unknown): VerifyResult;
};

export function openKeyStore(env: RootDatabase, opts: { now?: () => number } = {}): KeyStore {
  const db = openSubDb<StoredKey>(env, DB_NAMES.keys);
  const now = opts.now ?? Date.now;
  const durablePut = async (rec: StoredKey): Promise<void> => {
    await db.put(rec.id, rec);
    await db.flushed;
  };
  const mustGet = (id: string): StoredKey => {
    const rec = typeof id === 'string' ? db.get(id) : undefined;
    if (!rec) throw new AppError('not_found', `no API key with id "${String(id)}"`);
    return rec;
  };
  return {
    async createKey(input) {
      const issued = mintKey(db, { scopes: parseScopes(input.scopes), rpmLimit: checkRpm(input.rpmLimit), label: input.label ?? null, rotatedFrom: null, ownerId: input.ownerId ?? null, nowMs: now() });
      await durablePut(issued.stored);
      return { plaintext: issued.plaintext, key: publicView(issued.stored, db) };
    },
    async rotateKey(id) {
      const old = mustGet(id);
      if (old.revoked_at) throw new AppError('validation_failed', `API key "${id}" is revoked and cannot be rotated`);
      const nowMs = now();
      const issued = mintKey(db, { scopes: old.scopes, rpmLimit: old.rpm_limit, label: old.label, rotatedFrom: old.id, ownerId: ownerOfStored(db, old), nowMs });
      await db.transaction(() => {
        db.put(issued.stored.id, issued.stored);
        db.put(old.id, { ...old, revoked_at: new Date(nowMs).toISOString() });
      });
      await db.flushed;
      return { plaintext: issued.plaintext, key: publicView(issued.stored, db) };
    },
    async revokeKey(id) {
      const rec = mustGet(id);
      if (rec.revoked_at) return publicView(rec, db);
      const revoked = { ...rec, revoked_at: new Date(now()).toISOString() };
      await durablePut(revoked);
      return publicView(revoked, db);
    },
    listKeys() {
      return [...db.getRange({})].map(({ value }) => publicView(value, db)).sort((a, b) => a.created_at.localeCompare(b.created_at));
    },
    getKey(id) {
      const rec = typeof id === 'string' ? db.get(id) : undefined;
      return rec ? publicView(rec, db) : null;
    },
    ownerIdOf(id) {
      const rec = typeof id === 'string' ? db.get(id) : undefined;
      return rec ? ownerOfStored(db, rec) : id;
    },
    verifyBearer(header) {
      try {
        return verifyHeader(db, header);
      } catch {
        // Defensive only: verifyHeader does not throw on any input, but a storage error must not become a 500 here.
        return { ok: false, reason: 'malformed' };
      }
    },
  };
}

function verifyHeader(db: Database<StoredKey, string | number>, header: unknown): VerifyResult {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, reason: 'missing' };
  if (value.length > AUTH_LIMITS.v.max_authorization_header_chars) return { ok: false, reason: 'too_long' };
  const bearer = BEARER_RE.exec(value.trim());
  if (!bearer) return { ok: false, reason: 'not_bearer' };
  const parts = TOKEN_RE.exec(bearer[1]);
  if (!parts) return { ok: false, reason: 'malformed' };
  const [, id, secret] = parts;
  const presented = sha256(secret);
  const rec = db.get(id);
  const stored = rec && /^[0-9a-f]{64}$/.test(rec.hash) ? Buffer.from(rec.hash, 'hex') : DUMMY_DIGEST;
  const equal = timingSafeEqual(presented, stored);
  if (!rec) return { ok: false, reason: 'unknown_key' };
  if (!equal) return { ok: false, reason: 'bad_secret' };
  if (rec.revoked_at) return { ok: false, reason: 'revoked' };
  return { ok: true, key: publicView(rec, db) };
}

function mintKey(
  db: Database<StoredKey, string | number>,
  o: { scopes: Scope[]; rpmLimit: number; label: string | null; rotatedFrom: string | null; ownerId: string | null; nowMs: number },
): { plaintext: string; stored: StoredKey } {
  let id = randomBytes(AUTH_LIMITS.v.key_id_bytes).toString('hex');
  // 48-bit ids: a collision is astronomically rare, but a silent overwrite of another key would be a security bug.
  while (db.doesExist(id)) id = randomBytes(AUTH_LIMITS.v.key_id_bytes).toString('hex');
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

function checkRpm(rpm: number | undefined): number {
  if (rpm === undefined) return AUTH_LIMITS.v.key_default_rpm;
  if (!Number.isInteger(rpm) || rpm < 1 || rpm > AUTH_LIMITS.v.key_max_rpm) {
    throw new AppError('validation_failed', `rpm_limit must be an integer from 1 to ${AUTH_LIMITS.v.key_max_rpm}`);
  }
  return rpm;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The stored owner, else the root of the rotated_from chain (keys stored before owner_id); a cycle stops the walk. */
function ownerOfStored(db: Database<StoredKey, string | number>, rec: StoredKey): string {
  let cur = rec;
  const seen = new Set<string>();
  while (!cur.owner_id && cur.rotated_from && !seen.has(cur.id)) {
    seen.add(cur.id);
    const prev = db.get(cur.rotated_from);
    if (!prev) return cur.rotated_from;
    cur = prev;
  }
  return cur.owner_id ?? cur.id;
}

function publicView(rec: StoredKey, db: Database<StoredKey, string | number>): ApiKey {
  const { hash: _hash, ...rest } = rec;
  return { ...rest, scopes: [...rest.scopes], owner_id: ownerOfStored(db, rec) };
}
