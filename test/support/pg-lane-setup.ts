// vitest global setup of the PostgreSQL lane (pg-lane.ts): with AVM_TEST_BACKEND=postgresql one cluster for the whole
// run, its URL provided to every test process, stopped at the end. A lane asked for without PostgreSQL installed fails
// here, before any test runs (it never falls back to LMDB silently).
// Every lane: the run's temporary folders (corpora, data dirs, clusters the tests make) go under one folder of the run,
// removed at the end, so a run leaves nothing behind in the machine's temp folder (3,830 corpora had piled up here).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgBinDir, startLocalCluster } from '../../bench/pg-cluster.js';
import { PG_LANE_ENV } from './pg-lane.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const removeRunTemp = useRunTempFolder();
  const backend = process.env[PG_LANE_ENV] ?? 'lmdb';
  if (backend === 'lmdb') {
    project.provide('pgLaneUrl', '');
    return async () => removeRunTemp();
  }
  if (backend !== 'postgresql') throw new Error(`${PG_LANE_ENV}=${backend}: expected lmdb or postgresql`);
  if (pgBinDir() === null) throw new Error(`${PG_LANE_ENV}=postgresql but the PostgreSQL server is not installed (apt-get install postgresql)`);
  const cluster = await startLocalCluster({ max_connections: '500' });
  project.provide('pgLaneUrl', cluster.url);
  return async () => {
    await cluster.stop();
    removeRunTemp();
  };
}

/** Points TMPDIR (read by os.tmpdir() in the test processes, which inherit it) at a new folder; returns its removal. */
function useRunTempFolder(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'avm-vitest-'));
  chmodSync(root, 0o755); // clusters the tests start run as the postgres user (when the tests run as root) and live here
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
