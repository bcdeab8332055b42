// The operations state replicas share (issue 18, beside the StateBackend of keys, audit, user state and events): the
// alert outbox, the rate limiter, the daily-run lock and the calibration/model registry. LMDB (one process, today's
// behaviour) or PostgreSQL over the backend's pool; each piece has one interface and a contract suite run on both.
import type { RootDatabase } from 'lmdb';
import type { OpenOutbox } from '../alerts/cli.js';
import type { DigestResult, DigestRun } from '../alerts/digest.js';
import { runDigestPg } from '../alerts/digest-pg.js';
import { openPgOutbox } from '../alerts/outbox-pg.js';
import { lmdbOutbox, type AlertOutbox } from '../alerts/outbox-store.js';
import { openAlertStore, type AlertStore } from '../alerts/store.js';
import type { RateLimiter } from '../auth/limiter.js';
import { pgLimiter } from '../auth/limiter-pg.js';
import { lmdbDailyRunLock, type DailyRunLock } from '../listings/daily-run.js';
import { pgDailyRunLock } from '../listings/daily-run-pg.js';
import { openPgRegistry } from '../registry/registry-pg.js';
import { lmdbRegistry, type RegistryStore } from '../registry/registry-store.js';
import type { Config } from '../config.js';
import { openStateBackend } from './backend.js';
import { openEnv } from './env.js';
import type { PgPool } from './pg/pool.js';
import type { Store } from './store.js';

export type OpsBackend = {
  /** Shared by replicas: then every replica sweeps the outbox for lapsed claims (alerts/sweep.ts). */
  shared: boolean;
  outbox: AlertOutbox;
  /** The listings run's digest over that outbox (undefined: the LMDB digest). */
  digest?: (store: AlertStore, run: DigestRun) => Promise<DigestResult>;
  /** Null: the doors make their in-memory limiter (with the service's clock), as before. */
  limiter: RateLimiter | null;
  dailyRun: DailyRunLock;
  registry: RegistryStore;
};

export function lmdbOpsBackend(store: Store & { env: RootDatabase }): OpsBackend {
  return { shared: false, outbox: lmdbOutbox(openAlertStore(store.env)), limiter: null, dailyRun: lmdbDailyRunLock(store.env), registry: lmdbRegistry(store) };
}

export function pgOpsBackend(pool: PgPool, opts: { anonRateLimit?: number | null } = {}): OpsBackend {
  return {
    shared: true,
    outbox: openPgOutbox(pool),
    digest: (store, run) => runDigestPg(pool, store, run),
    limiter: pgLimiter(pool, { anonLimit: opts.anonRateLimit ?? undefined }),
    dailyRun: pgDailyRunLock(pool),
    registry: openPgRegistry(pool),
  };
}


/** The `avm alerts` commands' outbox with AVM_DATABASE_URL: the shared one (profiles from the shared state); else undefined (LMDB). */
export function sharedOutboxOpener(config: Pick<Config, 'databaseUrl'>): OpenOutbox | undefined {
  if (!config.databaseUrl) return undefined;
  return async (dataDir) => {
    const env = openEnv(dataDir);
    const backend = await openStateBackend(config, env);
    return {
      store: backend.alerts,
      outbox: openPgOutbox(backend.pool as PgPool),
      close: async () => {
        await backend.close();
        await env.close();
      },
    };
  };
}
