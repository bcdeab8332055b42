// API keys in PostgreSQL (issue 18): the same KeyStore as the LMDB one (src/auth/keys.ts), shared by every replica,
// so a key created or revoked on one replica is honoured by all on their next request. Rotation is one transaction
// (the new key inserted, the old one revoked under a row lock).
import { AppError } from '../../errors/app-error.js';
import { checkRpm, mintKey, parseBearer, verdictOf, type ApiKey, type StoredKey } from '../../auth/key-material.js';
import type { KeyStore } from '../../auth/keys.js';
import { parseScopes, type Scope } from '../../auth/scopes.js';
import { inTransaction, type PgPool } from './pool.js';
import { storeUnavailableError } from './unavailable.js';

type Row = { id: string; hash: string; scopes: string[]; rpm_limit: number; created_at: string; rotated_from: string | null; revoked_at: string | null; label: string | null; owner_id: string };

const COLUMNS = 'id, hash, scopes, rpm_limit, created_at, rotated_from, revoked_at, label, owner_id';
const stored = (r: Row): StoredKey => ({ ...r, scopes: r.scopes as Scope[] });
const publicView = (r: StoredKey): ApiKey => {
  const { hash: _hash, ...rest } = r;
  return { ...rest, scopes: [...rest.scopes], owner_id: rest.owner_id ?? rest.id };
};
const insertSql = `INSERT INTO api_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
const insertArgs = (k: StoredKey): unknown[] => [k.id, k.hash, k.scopes, k.rpm_limit, k.created_at, k.rotated_from, k.revoked_at, k.label, k.owner_id ?? k.id];

export function openPgKeyStore(pool: PgPool, opts: { now?: () => number } = {}): KeyStore {
  const now = opts.now ?? Date.now;
  const getStored = async (id: string): Promise<StoredKey | undefined> => {
    if (typeof id !== 'string') return undefined;
    const r = await pool.query<Row>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]);
    return r.rows[0] ? stored(r.rows[0]) : undefined;
  };
  const taken = async (id: string): Promise<boolean> => (await pool.query('SELECT 1 FROM api_keys WHERE id = $1', [id])).rowCount! > 0;
  const listWhere = async (where: string, args: unknown[]): Promise<ApiKey[]> =>
    (await pool.query<Row>(`SELECT ${COLUMNS} FROM api_keys ${where} ORDER BY created_at, id`, args)).rows.map((r) => publicView(stored(r)));
  return {
    async createKey(input) {
      const issued = await mintKey(taken, { scopes: parseScopes(input.scopes), rpmLimit: checkRpm(input.rpmLimit), label: input.label ?? null, rotatedFrom: null, ownerId: input.ownerId ?? null, nowMs: now() });
      await pool.query(insertSql, insertArgs(issued.stored));
      return { plaintext: issued.plaintext, key: publicView(issued.stored) };
    },
    async rotateKey(id) {
      const nowMs = now();
      return inTransaction(pool, async (c) => {
        const r = await c.query<Row>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 FOR UPDATE`, [typeof id === 'string' ? id : '']);
        if (!r.rows[0]) throw new AppError('not_found', `no API key with id "${String(id)}"`);
        const old = stored(r.rows[0]);
        if (old.revoked_at) throw new AppError('key_not_rotatable', `API key "${id}" is revoked and cannot be rotated`);
        const issued = await mintKey(async (k) => (await c.query('SELECT 1 FROM api_keys WHERE id = $1', [k])).rowCount! > 0, {
          scopes: old.scopes, rpmLimit: old.rpm_limit, label: old.label, rotatedFrom: old.id, ownerId: old.owner_id ?? old.id, nowMs,
        });
        await c.query(insertSql, insertArgs(issued.stored));
        await c.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1', [old.id, new Date(nowMs).toISOString()]);
        return { plaintext: issued.plaintext, key: publicView(issued.stored) };
      });
    },
    async revokeKey(id) {
      // Only a key not yet revoked gets a time: the first revocation's stays.
      await pool.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [typeof id === 'string' ? id : '', new Date(now()).toISOString()]);
      const rec = await getStored(id);
      if (!rec) throw new AppError('not_found', `no API key with id "${String(id)}"`);
      return publicView(rec);
    },
    listKeys: () => listWhere('', []),
    listOwnerKeys: (owner) => listWhere('WHERE owner_id = $1', [owner]),
    async getKey(id) {
      const rec = await getStored(id);
      return rec ? publicView(rec) : null;
    },
    async ownerIdOf(id) {
      return (await getStored(id))?.owner_id ?? id;
    },
    async verifyBearer(header) {
      const parsed = parseBearer(header);
      if (!('id' in parsed)) return parsed;
      // A database that does not answer rejects with shared_store_unavailable (503): the key could not be checked, which
      // is not the same as invalid, so the caller is not told 401.
      let rec: StoredKey | undefined;
      try {
        rec = await getStored(parsed.id);
      } catch (e) {
        throw storeUnavailableError(e) ?? e;
      }
      return verdictOf(rec, parsed.secret, publicView);
    },
  };
}
