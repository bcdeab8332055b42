// Where the authorization server keeps its state, whichever backend holds it: oidc-provider's records (clients, codes,
// tokens, grants, sessions, interactions), its own secrets (cookie key, signing key) and which API key each approved
// grant minted. On LMDB (this file) the `oauth` sub-database; on PostgreSQL (src/store/pg/oauth.ts) tables every
// replica shares, so a sign-in begun on one replica finishes on another and a token issued by one works on all.
import type { Adapter } from 'oidc-provider';
import type { RootDatabase } from 'lmdb';
import { DB_NAMES, openSubDb } from '../../store/env.js';
import { lmdbAdapterFactory, sweepExpiredOAuthRecords } from './adapter.js';
import { loadOrCreateSecrets, type ServerSecrets } from './secrets.js';

export type OAuthStore = {
  /** One adapter per model name; `now` is the clock in ms (tests move it). */
  adapterFactory(now?: () => number): (model: string) => Adapter;
  /** The server's secrets, made by the first process that asks; every later call (and replica) gets the same. */
  secrets(): Promise<ServerSecrets>;
  /** The API key minted when the owner approved grant `grantId` (null: none). */
  keyOfGrant(grantId: string): Promise<string | null>;
  bindGrantToKey(grantId: string, keyId: string): Promise<void>;
  /** Removes every expired record; returns how many went. */
  sweepExpired(nowMs?: number): Promise<number>;
};

const grantKeyRecord = (grantId: string): string => `grant-key:${grantId}`;

export function lmdbOAuthStore(env: RootDatabase): OAuthStore {
  const db = openSubDb<string>(env, DB_NAMES.oauth);
  return {
    adapterFactory: (now) => lmdbAdapterFactory(env, now),
    secrets: () => loadOrCreateSecrets(env),
    keyOfGrant: async (grantId) => (typeof grantId === 'string' ? (db.get(grantKeyRecord(grantId)) ?? null) : null),
    async bindGrantToKey(grantId, keyId) {
      await db.put(grantKeyRecord(grantId), keyId);
    },
    sweepExpired: (nowMs) => sweepExpiredOAuthRecords(env, nowMs),
  };
}
