// The store's read/write door over the one LMDB environment: snapshots by id (current by default), tracts, listings,
// reference tables and meta. Snapshots are immutable: a reader holding an id keeps reading it while newer ones land.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { tableFromIPC, type Table } from 'apache-arrow';
import { AppError } from '../errors/app-error.js';
import { DB_NAMES, openEnv, openSubDb } from './env.js';
import { verifySnapshotBytes, type SnapshotVerdict } from './integrity.js';
import { META_KEYS, type SnapshotInfo } from './snapshots.js';
import { tractsOf } from './arrow-tables.js';
import * as status from './store-status.js';
import type { TractRecord } from '../ingest/loaders/tracts.js';
import type { ListingRecord } from '../ingest/loaders/listings.js';

export type SnapshotRead = { id: string; table: Table; tracts: string[] };

export type Store = {
  env: RootDatabase;
  currentSnapshotId(): string | null;
  /** The current snapshot id; throws corpus_unavailable when none was ingested, snapshot_unverified when it fails verification. */
  readSalesSnapshotId(): string;
  /**
   * Snapshot `id` (default: current) checked against its recorded sha256, once per id per store (snapshots are
   * immutable). Null when there is no current snapshot.
   */
  verifySnapshot(id?: string): SnapshotVerdict | null;
  listSnapshots(): SnapshotInfo[];
  /** The sales snapshot `id` (default: current). Throws corpus_unavailable when there is none, snapshot_unverified when it fails verification. */
  readSalesSnapshot(id?: string): SnapshotRead;
  /** Raw Arrow IPC bytes of a sales snapshot (for handing to workers without re-encoding). */
  readSalesSnapshotBytes(id?: string): { id: string; bytes: Uint8Array };
  readParcels(id?: string): SnapshotRead;
  /** Raw Arrow IPC bytes of a parcel table (publishing a snapshot to replicas, src/store/shared). */
  readParcelBytes(id?: string): { id: string; bytes: Uint8Array };
  getTracts(): TractRecord[];
  getTract(geoid: string): TractRecord | undefined;
  getListings(): ListingRecord[];
  /** Upserts listings (by listing_id); resolves once durable. */
  putListings(listings: readonly ListingRecord[]): Promise<void>;
  getReference<T = unknown>(name: string): T | undefined;
  getMeta<T = unknown>(key: string): T | undefined;
  /** Resolves once durable. */
  putMeta(key: string, value: unknown): Promise<void>;
  checkEnv(): status.BindingCheck;
  checkSnapshot(): status.BindingCheck;
  /** Active listings and active rows scored by another model version. */
  listingsSummary(modelVersion: string): { active: number; staleModelRows: number };
  lastRun(): status.LastRun | null;
  corpusVintage(): string | null;
  /** Public tract list of /api/tracts/chicago (signals null until their engines land). */
  tractList(): status.PublicTractList;
  close(): Promise<void>;
};

/** Opens the store under `<dataDir>/lmdb` (created if absent). One per process: share it, do not reopen. */
export function openStore(dataDir: string): Store {
  const env = openEnv(dataDir);
  const meta = openSubDb(env, DB_NAMES.meta);
  const sales = openSubDb<Buffer>(env, DB_NAMES.salesSnapshots);
  const parcels = openSubDb<Buffer>(env, DB_NAMES.parcels);
  const tracts = openSubDb<TractRecord>(env, DB_NAMES.tracts);
  const listings = openSubDb<ListingRecord>(env, DB_NAMES.listings);
  const reference = openSubDb(env, DB_NAMES.reference);
  const current = (): string | null => (meta.get(META_KEYS.currentSnapshot) as string | undefined) ?? null;
  const listSnapshots = (): SnapshotInfo[] => (meta.get(META_KEYS.snapshots) as SnapshotInfo[] | undefined) ?? [];
  const verdicts = new Map<string, SnapshotVerdict>();
  const verdictOf = (id: string): SnapshotVerdict => {
    let v = verdicts.get(id);
    if (v === undefined) {
      v = verifySnapshotBytes(id, listSnapshots().find((s) => s.id === id), sales.getBinary(id), parcels.getBinary(id));
      verdicts.set(id, v);
    }
    return v;
  };
  const assertVerified = (id: string): void => {
    const v = verdictOf(id);
    if (!v.ok) throw new AppError('snapshot_unverified', `${v.detail}; nothing is valued from it (run avm verify, then avm ingest to replace it).`);
  };
  const bytesOf = (db: typeof sales, what: string, id?: string): { id: string; bytes: Uint8Array } => {
    const key = id ?? current();
    if (key === null) throw new AppError('corpus_unavailable', 'No sales snapshot has been ingested yet.');
    const bytes = db.getBinary(key);
    if (bytes === undefined) throw new AppError('corpus_unavailable', `${what} ${key} is not in the store (retired or never written).`);
    assertVerified(key);
    return { id: key, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  };
  const read = (db: typeof sales, what: string, id?: string): SnapshotRead => {
    const { id: key, bytes } = bytesOf(db, what, id);
    const table = tableFromIPC(bytes);
    return { id: key, table, tracts: tractsOf(table) };
  };
  return {
    env,
    currentSnapshotId: current,
    readSalesSnapshotId: () => {
      const id = current();
      if (id === null) throw new AppError('corpus_unavailable', 'No sales snapshot has been ingested yet.');
      assertVerified(id);
      return id;
    },
    verifySnapshot: (id) => {
      const key = id ?? current();
      return key === null ? null : verdictOf(key);
    },
    listSnapshots,
    readSalesSnapshot: (id) => read(sales, 'sales snapshot', id),
    readSalesSnapshotBytes: (id) => bytesOf(sales, 'sales snapshot', id),
    readParcels: (id) => read(parcels, 'parcel table', id),
    readParcelBytes: (id) => bytesOf(parcels, 'parcel table', id),
    getTracts: () => Array.from(tracts.getRange()).map((e) => e.value),
    getTract: (geoid) => tracts.get(geoid),
    getListings: () => Array.from(listings.getRange()).map((e) => e.value),
    putListings: async (rows) => {
      await env.transaction(() => {
        for (const l of rows) listings.put(l.listing_id, l);
      });
    },
    getReference: <T>(name: string) => reference.get(name) as T | undefined,
    getMeta: <T>(key: string) => meta.get(key) as T | undefined,
    putMeta: async (key, value) => {
      await meta.put(key, value);
    },
    checkEnv: () => status.checkEnv(env),
    checkSnapshot: () => status.checkSnapshot(meta, sales, verdictOf),
    listingsSummary: (modelVersion) => status.listingsSummary(listings, modelVersion),
    lastRun: () => status.lastRun(meta),
    corpusVintage: () => status.corpusVintage(meta),
    tractList: () => status.tractList(tracts, status.corpusVintage(meta)),
    close: () => env.close(),
  };
}

/**
 * True when `dataDir` holds an ingested corpus (a current sales snapshot). Synchronous: opens its own handle on the
 * environment and releases it (lmdb-js keeps other handles on the same path working).
 */
export function hasCorpus(dataDir: string): boolean {
  if (!existsSync(join(dataDir, 'lmdb', 'data.mdb'))) return false;
  const env = openEnv(dataDir);
  try {
    return status.checkSnapshot(openSubDb(env, DB_NAMES.meta), openSubDb(env, DB_NAMES.salesSnapshots)).ok;
  } finally {
    void env.close();
  }
}
