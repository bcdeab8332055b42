// API keys: issue (plaintext shown once), store hashed, rotate, revoke, list, and verify a Bearer header. KeyStore is
// what the service uses, whichever backend holds the keys; openKeyStore is the embedded LMDB one (PostgreSQL:
// src/store/pg/keys.ts). The token format, minting and the verdict are shared (key-material.ts).
import type { Database, RootDatabase } from 'lmdb';
import { AppError } from '../errors/app-error.js';
import type { Awaitable } from '../store/awaitable.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { checkRpm, mintKey, parseBearer, verdictOf, type ApiKey, type IssuedKey, type StoredKey, type VerifyResult } from './key-material.js';
import { parseScopes } from './scopes.js';

export { KEY_PREFIX, type ApiKey, type IssuedKey, type StoredKey, type VerifyFailure, type VerifyResult } from './key-material.js';

export type KeyStore = {
  /** `ownerId`: the owner a new key belongs to (an OAuth approval mints a key for the owner who approved); default itself. */
  createKey(input: { scopes: string | readonly string[]; rpmLimit?: number; label?: string; ownerId?: string }): Promise<IssuedKey>;
  /** New secret with the same scopes, limit and label; the old key is revoked in the same transaction. */
  rotateKey(id: string): Promise<IssuedKey>;
  /** Idempotent: revoking a revoked key keeps the first revocation time. */
  revokeKey(id: string): Promise<ApiKey>;
  /** Every key, oldest first. */
  listKeys(): Awaitable<ApiKey[]>;
  /** The owner's keys, oldest first. */
  listOwnerKeys(owner: string): Awaitable<ApiKey[]>;
  getKey(id: string): Awaitable<ApiKey | null>;
  /** The owner (root key id of the rotation chain) of key `id`; `id` itself for an unknown key. */
  ownerIdOf(id: string): Awaitable<string>;
  /** Never throws for any header; rejects only with shared_store_unavailable when a shared store does not answer. */
  verifyBearer(authorizationHeader: unknown): Awaitable<VerifyResult>;
};

/** The LMDB key store answers reads synchronously (its CLIs and tests rely on it). */
export type LmdbKeyStore = Omit<KeyStore, 'listKeys' | 'listOwnerKeys' | 'getKey' | 'ownerIdOf' | 'verifyBearer'> & {
  listKeys(): ApiKey[];
  listOwnerKeys(owner: string): ApiKey[];
  getKey(id: string): ApiKey | null;
  ownerIdOf(id: string): string;
  verifyBearer(authorizationHeader: unknown): VerifyResult;
};

export function openKeyStore(env: RootDatabase, opts: { now?: () => number } = {}): LmdbKeyStore {
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
  const taken = (id: string): boolean => db.doesExist(id);
  const listKeys = (): ApiKey[] => [...db.getRange({})].map(({ value }) => publicView(value, db)).sort((a, b) => a.created_at.localeCompare(b.created_at));
  return {
    async createKey(input) {
      const issued = await mintKey(taken, { scopes: parseScopes(input.scopes), rpmLimit: checkRpm(input.rpmLimit), label: input.label ?? null, rotatedFrom: null, ownerId: input.ownerId ?? null, nowMs: now() });
      await durablePut(issued.stored);
      return { plaintext: issued.plaintext, key: publicView(issued.stored, db) };
    },
    async rotateKey(id) {
      const old = mustGet(id);
      if (old.revoked_at) throw new AppError('key_not_rotatable', `API key "${id}" is revoked and cannot be rotated`);
      const nowMs = now();
      const issued = await mintKey(taken, { scopes: old.scopes, rpmLimit: old.rpm_limit, label: old.label, rotatedFrom: old.id, ownerId: ownerOfStored(db, old), nowMs });
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
    listKeys,
    listOwnerKeys: (owner) => listKeys().filter((k) => k.owner_id === owner),
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
        const parsed = parseBearer(header);
        if (!('id' in parsed)) return parsed;
        return verdictOf(db.get(parsed.id), parsed.secret, (rec) => publicView(rec, db));
      } catch {
        // Defensive only: a storage error must not become a 500 here.
        return { ok: false, reason: 'malformed' };
      }
    },
  };
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
