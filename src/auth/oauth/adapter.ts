// oidc-provider's storage adapter over the service's LMDB (sub-database `oauth`): registered clients, authorization
// codes, access and refresh tokens, grants, sessions and consent interactions survive a restart like API keys do.
// Records carry their expiry; an expired record is treated as absent and removed when next looked up, and
// sweepExpiredOAuthRecords removes the rest (the door runs it at start and daily).
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Database, RootDatabase } from 'lmdb';
import { DB_NAMES, openSubDb } from '../../store/env.js';

type Stored = { payload: AdapterPayload; expiresAt: number | null };

/** Models whose records name a grant: revoking the grant (reused code, revoked consent) removes them all. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

const recordKey = (model: string, id: string): string => `m:${model}:${id}`;
const grantMemberPrefix = (grantId: string): string => `g:${grantId}:`;
const uidKey = (uid: string): string => `uid:${uid}`;

/** One adapter instance per model name, all over the same sub-database; `now` is the clock in ms (tests move it). */
export function lmdbAdapterFactory(env: RootDatabase, now: () => number = () => Date.now()): (model: string) => Adapter {
  const db = openSubDb<unknown>(env, DB_NAMES.oauth);
  return (model) => new LmdbAdapter(db, model, now);
}

class LmdbAdapter implements Adapter {
  constructor(
    private readonly db: Database<unknown, string | number>,
    private readonly model: string,
    private readonly now: () => number,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' ? this.now() + expiresIn * 1000 : null;
    await this.db.transaction(() => {
      this.db.put(recordKey(this.model, id), { payload, expiresAt } satisfies Stored);
      if (GRANTABLE.has(this.model) && payload.grantId) this.db.put(`${grantMemberPrefix(payload.grantId)}${recordKey(this.model, id)}`, expiresAt);
      if (this.model === 'Session' && payload.uid) this.db.put(uidKey(payload.uid), id);
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const rec = this.db.get(recordKey(this.model, id)) as Stored | undefined;
    if (!rec) return undefined;
    if (rec.expiresAt !== null && rec.expiresAt <= this.now()) {
      await this.destroy(id);
      return undefined;
    }
    return rec.payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = this.db.get(uidKey(uid));
    return typeof id === 'string' ? this.find(id) : undefined;
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    return undefined; // the device flow is not enabled
  }

  /**
   * Marks a code (or refresh token) used, atomically: of two exchanges racing with one code, the second finds it
   * consumed inside the same write transaction and is refused with invalid_grant (single use holds under concurrency).
   */
  async consume(id: string): Promise<void> {
    const key = recordKey(this.model, id);
    const ok = this.db.transactionSync(() => {
      const rec = this.db.get(key) as Stored | undefined;
      if (!rec || rec.payload.consumed) return false;
      this.db.putSync(key, { ...rec, payload: { ...rec.payload, consumed: Math.floor(this.now() / 1000) } });
      return true;
    });
    if (!ok) throw new errors.InvalidGrant(`${this.model} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    const key = recordKey(this.model, id);
    const rec = this.db.get(key) as Stored | undefined;
    await this.db.transaction(() => {
      this.db.remove(key);
      if (rec?.payload.grantId) this.db.remove(`${grantMemberPrefix(rec.payload.grantId)}${key}`);
      if (rec?.payload.uid && this.db.get(uidKey(rec.payload.uid)) === id) this.db.remove(uidKey(rec.payload.uid));
    });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const prefix = grantMemberPrefix(grantId);
    const members = [...this.db.getKeys({ start: prefix, end: `${prefix}\uffff` })].map(String);
    await this.db.transaction(() => {
      for (const member of members) {
        this.db.remove(member);
        this.db.remove(member.slice(prefix.length));
      }
    });
  }
}

/** Removes every expired record (and its grant index entry); returns how many records went. */
export async function sweepExpiredOAuthRecords(env: RootDatabase, now: number = Date.now()): Promise<number> {
  const db = openSubDb<unknown>(env, DB_NAMES.oauth);
  const expired: Array<{ key: string; payload: AdapterPayload }> = [];
  for (const { key, value } of db.getRange({ start: 'm:', end: 'm:\uffff' })) {
    const rec = value as Stored;
    if (rec.expiresAt !== null && rec.expiresAt <= now) expired.push({ key: String(key), payload: rec.payload });
  }
  await db.transaction(() => {
    for (const { key, payload } of expired) {
      db.remove(key);
      if (payload.grantId) db.remove(`${grantMemberPrefix(payload.grantId)}${key}`);
    }
  });
  return expired.length;
}
