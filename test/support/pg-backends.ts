// Contract-test support for the interfaces with an LMDB and a PostgreSQL implementation: one throwaway cluster per test
// file (bench/pg-cluster.ts), a fresh migrated database per test, and the list of backends a suite runs against
// (PostgreSQL only where its server is installed; CI installs it and then never skips).
import { pgBinDir, startLocalCluster, type LocalCluster } from '../../bench/pg-cluster.js';
import { migrate } from '../../src/store/pg/migrate.js';
import { openPgPool, type PgPool } from '../../src/store/pg/pool.js';

export const PG_AVAILABLE = pgBinDir() !== null || Boolean(process.env.CI);

export type PgHarness = { cluster: LocalCluster | null; database(max?: number): Promise<{ url: string; pool: PgPool; pools: PgPool[] }>; stop(): Promise<void> };

/** Starts the cluster (when PostgreSQL is available); database() makes a migrated database and tracks its pools. */
export async function startPgHarness(): Promise<PgHarness> {
  const cluster = PG_AVAILABLE ? await startLocalCluster() : null;
  const pools: PgPool[] = [];
  let n = 0;
  return {
    cluster,
    async database(max = 4) {
      if (!cluster) throw new Error('PostgreSQL is not installed');
      const url = cluster.createDatabase(`contract_${process.pid}_${n++}`);
      const pool = openPgPool(url, { max });
      pools.push(pool);
      await migrate(pool);
      return { url, pool, pools };
    },
    async stop() {
      await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
      cluster?.stop();
    },
  };
}

/** Opens another pool on `url` (a second "replica"), closed by the harness's stop(). */
export function extraPool(h: { pools: PgPool[] }, url: string, max = 4): PgPool {
  const p = openPgPool(url, { max });
  h.pools.push(p);
  return p;
}

/** The backends a contract suite runs against. */
export const BACKENDS: Array<'lmdb' | 'postgresql'> = PG_AVAILABLE ? ['lmdb', 'postgresql'] : ['lmdb'];
