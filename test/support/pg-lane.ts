// The PostgreSQL lane of the test suite (issue 18: "the whole test suite runs on both backends"). With
// AVM_TEST_BACKEND=postgresql (`npm run test:pg`), vitest's global setup (pg-lane-setup.ts) starts one throwaway
// cluster and every service a test starts (testConfig, runCli, a spawned `avm serve`) keeps its shared state there
// (AVM_DATABASE_URL) instead of in LMDB. One database per data dir, so the state is shared exactly where the LMDB
// state would be: two services or CLI runs over the same data dir see each other's keys and events, two data dirs
// never do. Without the variable every function here is a no-op and the suite runs on LMDB.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { pgBinDir } from '../../bench/pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The lane's cluster (`postgres` database, superuser avm), or '' when the suite runs on LMDB. */
    pgLaneUrl: string;
  }
}

export const PG_LANE_ENV = 'AVM_TEST_BACKEND';

const created = new Set<string>();

/**
 * The state database of `dataDir` in the lane's cluster (made on first use), or null on the LMDB lane and outside a
 * vitest run (scripts/openapi-examples.ts starts its service through testConfig; vitest's inject throws there).
 */
export function laneDatabaseUrl(dataDir: string): string | null {
  const cluster = process.env.VITEST ? inject('pgLaneUrl') : '';
  if (!cluster) return null;
  const name = `state_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;
  const url = new URL(cluster);
  if (!created.has(name)) {
    try {
      execFileSync(join(pgBinDir()!, 'createdb'), ['-h', url.hostname, '-p', url.port, '-U', url.username, name], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      // Another test process over the same (committed fixture) data dir made it first: the same database is meant.
      if (!String((e as { stderr?: Buffer }).stderr ?? '').includes('already exists')) throw e;
    }
    created.add(name);
  }
  url.pathname = `/${name}`;
  return url.toString();
}

/** The env a test service or CLI over `dataDir` needs on this lane: AVM_DATABASE_URL, unless the test chose one. */
export function laneEnv(dataDir: string | undefined, env: Record<string, string | undefined> = {}): Record<string, string> {
  if (!dataDir || env.AVM_DATABASE_URL !== undefined) return {};
  const url = laneDatabaseUrl(dataDir);
  return url ? { AVM_DATABASE_URL: url } : {};
}
