// The PostgreSQL + PostGIS peer: its own throwaway cluster (bench/pg-cluster.ts), the snapshot COPYed in, then the
// per-subject query tried under each index a PostGIS user would reach for; the fastest is CLUSTERed and prewarmed
// and measured again. Every variant's row sets are checked against the kernel's.
import { chmodSync } from 'node:fs';
import type { Subject } from '../../src/kernel/types.js';
import { startLocalCluster, type LocalCluster } from '../pg-cluster.js';
import { compareRowSets, latencyOf, timeEach } from './compare.js';
import { postgresPeer, type SqlPeer } from './peer-db.js';
import { candidateQuery, loadPeer, type CsvFiles } from './run-peer.js';
import type { Prefilter } from './sql.js';
import type { Policy } from './tables.js';

/** Server settings of the bench cluster: room for the table and its index in shared buffers (pg_prewarm). */
export const PG_SETTINGS = { shared_buffers: '1GB', work_mem: '256MB', maintenance_work_mem: '1GB', max_wal_size: '8GB', synchronous_commit: 'off' };

/** Index variants: name, its DDL, the prefilter the query uses with it. */
export const PG_INDEXES: Array<{ name: string; ddl: string; pre: Prefilter }> = [
  { name: 'gist_geometry', ddl: 'CREATE INDEX sales_ix ON sales USING gist (geom)', pre: 'geom' },
  { name: 'gist_geography', ddl: 'CREATE INDEX sales_ix ON sales USING gist (geog)', pre: 'geog' },
  { name: 'gist_composite_geometry_ptype_county_sale_day', ddl: 'CREATE INDEX sales_ix ON sales USING gist (geom, ptype, county, sale_day)', pre: 'geom' },
];

export type PgSession = { cluster: LocalCluster; peer: SqlPeer; version: string; postgis: string };

export async function startPostgis(): Promise<PgSession> {
  const cluster = await startLocalCluster(PG_SETTINGS);
  try {
    const peer = await postgresPeer(cluster.createDatabase('peers'));
    for (const ext of ['postgis', 'btree_gist', 'pg_prewarm']) await peer.exec(`CREATE EXTENSION ${ext}`);
    const version = String((await peer.rows("SELECT current_setting('server_version_num')::int"))[0][0]);
    const postgis = await postgisVersion(peer);
    return { cluster, peer, version, postgis };
  } catch (e) {
    cluster.stop();
    throw e;
  }
}

async function postgisVersion(peer: SqlPeer): Promise<string> {
  // rows() reads numbers; the version string is read through a numeric encoding of major.minor.
  const [[v]] = await peer.rows("SELECT split_part(postgis_lib_version(), '.', 1)::int * 100 + split_part(postgis_lib_version(), '.', 2)::int");
  return `${Math.floor(v! / 100)}.${v! % 100}`;
}

/** The server reads the CSVs: they must be readable by its user (the folder is the cluster's own). */
export function readableByServer(files: CsvFiles): void {
  for (const f of Object.values(files)) chmodSync(f, 0o644);
}

export async function loadPostgis(s: PgSession, files: CsvFiles, p: Policy) {
  readableByServer(files);
  const load = await loadPeer(s.peer, files, p, {
    beforeScreen: ['CREATE INDEX sales_raw_parcel ON sales_raw (parcel_idx, sale_day)', 'ANALYZE sales_raw'],
    extraColumns: 'ST_SetSRID(ST_MakePoint(s.lon, s.lat), 4326) AS geom, ST_SetSRID(ST_MakePoint(s.lon, s.lat), 4326)::geography AS geog',
  });
  await s.peer.exec('ANALYZE sales');
  await s.peer.exec('ANALYZE subjects');
  return load;
}

async function measure(s: PgSession, p: Policy, pre: Prefilter, cases: readonly Subject[], truth: readonly number[][]) {
  const q = await candidateQuery(s.peer, p, pre);
  const { ms, out } = await timeEach(cases, q);
  return { latency: latencyOf(ms), rows_check: compareRowSets(truth, out) };
}

/** Tries every index on `trial` subjects, then CLUSTERs the fastest, prewarms and measures on all `cases`. */
export async function postgisPerQuery(s: PgSession, p: Policy, trial: { cases: Subject[]; truth: number[][] }, all: { cases: Subject[]; truth: number[][] }) {
  const variants: Record<string, unknown> = {};
  let best: { name: string; ddl: string; pre: Prefilter; median: number } | null = null;
  for (const ix of PG_INDEXES) {
    const t0 = performance.now();
    await s.peer.exec(ix.ddl);
    await s.peer.exec('ANALYZE sales');
    const buildMs = Math.round(performance.now() - t0);
    const m = await measure(s, p, ix.pre, trial.cases, trial.truth);
    variants[ix.name] = { build_ms: buildMs, ...m };
    if (!best || m.latency.median_us < best.median) best = { ...ix, median: m.latency.median_us };
    await s.peer.exec('DROP INDEX sales_ix');
  }
  const chosen = best!;
  const t0 = performance.now();
  await s.peer.exec(chosen.ddl);
  await s.peer.exec('CLUSTER sales USING sales_ix');
  await s.peer.exec('ANALYZE sales');
  const clusterMs = Math.round(performance.now() - t0);
  const [[pages]] = await s.peer.rows("SELECT pg_prewarm('sales') + pg_prewarm('sales_ix')");
  const final = await measure(s, p, chosen.pre, all.cases, all.truth);
  return { trial_subjects: trial.cases.length, variants, best_index: chosen.name, best: { index: chosen.name, clustered: true, prewarmed_pages: pages, build_and_cluster_ms: clusterMs, ...final } };
}
