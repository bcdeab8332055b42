// The one LMDB environment of the service and the names of its sub-databases.
// Modules open their own sub-database from this environment; none opens a second environment on the same path.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { assertLmdbFileIntact } from './lmdb-file.js';

/** Sub-database names. Arrow IPC bytes live only in `binary`-encoded databases. */
export const DB_NAMES = {
  meta: 'meta', //                 msgpack: current snapshot pointer, last_run, versions
  salesSnapshots: 'sales_snapshots', // binary: Arrow IPC of each immutable sales snapshot, key = snapshot id
  parcels: 'parcels', //           binary: Arrow IPC of the parcel table (characteristics + location), key = snapshot id
  tracts: 'tracts', //             msgpack: tract records keyed by GEOID, plus polygons
  listings: 'listings', //         msgpack: listings keyed by listing_id
  reference: 'reference', //       msgpack: reference tables (SAFMR, tax rates...) keyed by table name
  keys: 'api_keys', //             msgpack: API keys (hashed), keyed by key id
  audit: 'audit', //               msgpack: per-key audit and metering records
  userState: 'user_state', //      msgpack: favorites, presets, strategy profiles, notes
  events: 'events', //             msgpack: sync stream records keyed by sequence number
  outbox: 'alert_outbox', //       msgpack: alerts to deliver, with attempts and dead_letter
  calibration: 'calibration', //   msgpack: versioned calibration tables, model registry, calibration reports
  results: 'results', //           binary: Arrow IPC of bulk scoring results
  oauth: 'oauth', //               msgpack: OAuth authorization-server records (clients, codes, tokens, grants), src/auth/oauth
  appAnalytics: 'app_analytics', // msgpack: the public app's consented coarse events by day (src/analytics), kept app_analytics.event_retention_days
} as const;

export type DbName = (typeof DB_NAMES)[keyof typeof DB_NAMES];

const BINARY_DBS: ReadonlySet<string> = new Set([DB_NAMES.salesSnapshots, DB_NAMES.parcels, DB_NAMES.results]);

/**
 * Opens (creating if needed) the LMDB environment under `<dataDir>/lmdb`. Throws store_damaged, before mapping it,
 * when the data file is shorter than its header records (LMDB itself would die of SIGBUS on the first read past it).
 */
export function openEnv(dataDir: string): RootDatabase {
  const path = join(dataDir, 'lmdb');
  mkdirSync(path, { recursive: true });
  assertLmdbFileIntact(join(path, 'data.mdb'));
  return open({ path, maxDbs: 32, mapSize: 8 * 1024 ** 3, compression: false });
}

/** Sub-databases already opened, per environment: lmdb-js builds a new store (and its decoder) on every openDB. */
const opened = new WeakMap<RootDatabase, Map<DbName, Database<unknown, string | number>>>();

/**
 * A named sub-database with the encoding its contents need, opened once per environment (request paths read several
 * per request; a store handle stays valid as long as its environment).
 */
export function openSubDb<V = unknown>(env: RootDatabase, name: DbName): Database<V, string | number> {
  let dbs = opened.get(env);
  if (!dbs) opened.set(env, (dbs = new Map()));
  let db = dbs.get(name);
  if (!db) dbs.set(name, (db = env.openDB<unknown, string | number>({ name, encoding: BINARY_DBS.has(name) ? 'binary' : 'msgpack' })));
  return db as Database<V, string | number>;
}
