// The one place the backend is chosen (issue 18): with AVM_DATABASE_URL the service's shared state lives in
// PostgreSQL (one pool per process, migrations applied at start), else in the embedded LMDB environment, as it always
// has. Everything that holds state replicas must share is a field of StateBackend; a new piece (the alert outbox, the
// rate limiter, the snapshot pointer…) adds its field here with its LMDB and PostgreSQL openers, nothing else changes.
import { randomBytes } from 'node:crypto';
import type { RootDatabase } from 'lmdb';
import { openAlertStore, type AlertStore } from '../alerts/store.js';
import { openAudit, type Audit } from '../auth/audit.js';
import { lmdbOAuthStore, type OAuthStore } from '../auth/oauth/store.js';
import { openKeyStore, type KeyStore } from '../auth/keys.js';
import type { Config } from '../config.js';
import { getEventLog, type EventLog } from '../events/log.js';
import { lmdbOwnedState, type OwnedState } from '../events/owned-state.js';
import { openPgAudit } from './pg/audit.js';
import { openPgEventLog } from './pg/events.js';
import { openPgKeyStore } from './pg/keys.js';
import { openPgOAuthStore } from './pg/oauth.js';
import { migrate } from './pg/migrate.js';
import { openPgOwnedState } from './pg/owned-state.js';
import { openPgPool, type PgPool } from './pg/pool.js';
import { sharedMeta } from './pg/shared-meta.js';

export type StateBackend = {
  kind: 'lmdb' | 'postgres';
  /** The PostgreSQL pool (null on LMDB): what a PostgreSQL piece added here opens its store over. */
  pool: PgPool | null;
  keys: KeyStore;
  audit: Audit;
  /** Favorites, notes, presets and alert profiles, per owner. */
  owned: OwnedState;
  events: EventLog;
  /** The alerts' store: profiles from `owned`, the outbox (LMDB until it moves). */
  alerts: AlertStore;
  /** The authorization server's records, secrets and grant-to-key bindings (sign-in with OAuth). */
  oauth: OAuthStore;
  /** The keys page's form-token key shared by every replica (null: each process makes its own, as on one machine). */
  formKey: Buffer | null;
  /** Flushes the audit and releases the pool and the LISTEN connection (the LMDB environment is the Store's). */
  close(): Promise<void>;
};

export type BackendOptions = { now?: () => number; onError?: (e: unknown) => void };

/**
 * The embedded backend of an LMDB environment. The event log and the owned state are one per environment (opened on
 * first use); the audit is this backend's own (its batches end with close()).
 */
export function lmdbStateBackend(env: RootDatabase, opts: BackendOptions = {}): StateBackend {
  const events = getEventLog(env, { now: opts.now }); // first: the log takes its clock on first open
  const owned = lmdbOwnedState(env);
  const audit = openAudit(env, opts);
  return { kind: 'lmdb', pool: null, keys: openKeyStore(env, opts), audit, owned, events, alerts: openAlertStore(env, owned), oauth: lmdbOAuthStore(env), formKey: null, close: () => audit.close() };
}

/** PostgreSQL at `url`: opens the pool, applies pending migrations, then opens every store over it. */
export async function openPgStateBackend(url: string, env: RootDatabase, opts: BackendOptions = {}): Promise<StateBackend> {
  const pool = openPgPool(url);
  try {
    await migrate(pool);
    const formKey = Buffer.from(await sharedMeta(pool, 'keys_page_form_key', () => randomBytes(32).toString('base64url')), 'base64url');
    const events = await openPgEventLog(pool, url, opts);
    const owned = openPgOwnedState(pool, events);
    const audit = openPgAudit(pool, opts);
    return {
      kind: 'postgres', pool, keys: openPgKeyStore(pool, opts), audit, owned, events, alerts: openAlertStore(env, owned), oauth: openPgOAuthStore(pool), formKey,
      async close() {
        await audit.close();
        await events.close();
        await pool.end();
      },
    };
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
}

/** The backend `config` asks for: PostgreSQL when AVM_DATABASE_URL is set, else the LMDB environment's. */
export async function openStateBackend(config: Pick<Config, 'databaseUrl'>, env: RootDatabase, opts: BackendOptions = {}): Promise<StateBackend> {
  return config.databaseUrl ? openPgStateBackend(config.databaseUrl, env, opts) : lmdbStateBackend(env, opts);
}
