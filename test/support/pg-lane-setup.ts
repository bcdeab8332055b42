// vitest global setup of the PostgreSQL lane (pg-lane.ts): with AVM_TEST_BACKEND=postgresql one cluster for the whole
// run, its URL provided to every test process, stopped at the end. A lane asked for without PostgreSQL installed fails
// here, before any test runs (it never falls back to LMDB silently).
import type { TestProject } from 'vitest/node';
import { pgBinDir, startLocalCluster } from '../../bench/pg-cluster.js';
import { PG_LANE_ENV } from './pg-lane.js';

export default async function setup(project: TestProject): Promise<(() => void) | void> {
  const backend = process.env[PG_LANE_ENV] ?? 'lmdb';
  if (backend === 'lmdb') {
    project.provide('pgLaneUrl', '');
    return;
  }
  if (backend !== 'postgresql') throw new Error(`${PG_LANE_ENV}=${backend}: expected lmdb or postgresql`);
  if (pgBinDir() === null) throw new Error(`${PG_LANE_ENV}=postgresql but the PostgreSQL server is not installed (apt-get install postgresql)`);
  const cluster = await startLocalCluster({ max_connections: '500' });
  project.provide('pgLaneUrl', cluster.url);
  return () => cluster.stop();
}
