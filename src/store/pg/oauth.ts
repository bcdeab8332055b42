// The authorization server's state in PostgreSQL (issue 18): the OAuthStore of src/auth/oauth/store.ts shared by every
// replica. Same rules as the LMDB adapter (src/auth/oauth/adapter.ts): an expired record is absent (and removed when
// looked up), a code or refresh token is consumed once under concurrency (one conditional UPDATE), revoking a grant
// removes every record naming it.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { newServerSecrets, type ServerSecrets } from '../../auth/oauth/secrets.js';
import type { OAuthStore } from '../../auth/oauth/store.js';
import type { PgPool } from './pool.js';
import { sharedMeta } from './shared-meta.js';

/** Models whose records name a grant (as the LMDB adapter's GRANTABLE). */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

class PgAdapter implements Adapter {
  constructor(
    private readonly pool: PgPool,
    private readonly model: string,
    private readonly now: () => number,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' ? this.now() + expiresIn * 1000 : null;
    const grantId = GRANTABLE.has(this.model) && payload.grantId ? payload.grantId : null;
    const uid = this.model === 'Session' && payload.uid ? payload.uid : null;
    await this.pool.query(
      `INSERT INTO oauth_records (model, id, payload, grant_id, uid, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      [this.model, id, JSON.stringify(payload), grantId, uid, expiresAt],
    );
  }

  private async findWhere(column: 'id' | 'uid', value: string): Promise<AdapterPayload | undefined> {
    const r = await this.pool.query<{ id: string; payload: AdapterPayload; expires_at: string | null }>(`SELECT id, payload, expires_at FROM oauth_records WHERE model = $1 AND ${column} = $2 LIMIT 1`, [this.model, value]);
    const row = r.rows[0];
    if (!row) return undefined;
    if (row.expires_at !== null && Number(row.expires_at) <= this.now()) {
      await this.destroy(row.id);
      return undefined;
    }
    return row.payload;
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('id', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid', uid);
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    return undefined; // the device flow is not enabled
  }

  async consume(id: string): Promise<void> {
    // One statement: of two exchanges racing with one code, only one finds it unconsumed.
    const r = await this.pool.query(
      `UPDATE oauth_records SET payload = (jsonb_set(payload::jsonb, '{consumed}', to_jsonb($3::bigint)))::json
       WHERE model = $1 AND id = $2 AND (payload->>'consumed') IS NULL`,
      [this.model, id, Math.floor(this.now() / 1000)],
    );
    if (r.rowCount !== 1) throw new errors.InvalidGrant(`${this.model} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    await this.pool.query('DELETE FROM oauth_records WHERE model = $1 AND id = $2', [this.model, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.pool.query('DELETE FROM oauth_records WHERE grant_id = $1', [grantId]);
  }
}

export function openPgOAuthStore(pool: PgPool): OAuthStore {
  return {
    adapterFactory: (now = Date.now) => (model) => new PgAdapter(pool, model, now),
    async secrets(): Promise<ServerSecrets> {
      // The first replica's secrets win; every other replica (and restart) reads them without making a key pair.
      return sharedMeta(pool, 'oauth_secrets', newServerSecrets);
    },
    async keyOfGrant(grantId) {
      if (typeof grantId !== 'string') return null;
      return (await pool.query<{ key_id: string }>('SELECT key_id FROM oauth_grant_keys WHERE grant_id = $1', [grantId])).rows[0]?.key_id ?? null;
    },
    async bindGrantToKey(grantId, keyId) {
      await pool.query('INSERT INTO oauth_grant_keys (grant_id, key_id) VALUES ($1, $2) ON CONFLICT (grant_id) DO UPDATE SET key_id = EXCLUDED.key_id', [grantId, keyId]);
    },
    async sweepExpired(nowMs = Date.now()) {
      return (await pool.query('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at <= $1', [nowMs])).rowCount ?? 0;
    },
  };
}
