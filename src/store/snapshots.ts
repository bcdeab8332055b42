// Commits a new corpus in ONE LMDB write transaction: sales + parcel snapshots (immutable, keyed by snapshot id),
// the current-snapshot pointer, tracts, listings and reference tables. Older snapshots beyond the retention, and any
// whose bytes no longer match their recorded sha256, are dropped in the same transaction, after the pointer moves; a
// failure anywhere leaves the store exactly as it was.
import type { RootDatabase } from 'lmdb';
import { INGEST } from '../registry/groups/ingest.js';
import { DB_NAMES, openSubDb } from './env.js';
import { sha256Hex as sha256, verifySnapshotBytes } from './integrity.js';

export const META_KEYS = {
  currentSnapshot: 'sales:current', //   string: id of the snapshot readers should use
  snapshots: 'sales:snapshots', //       SnapshotInfo[]: retained snapshots, oldest first
  seq: 'sales:seq', //                   number: last snapshot sequence number
  lastIngest: 'ingest:last', //          IngestRecord of the last successful ingest
} as const;

export type SnapshotInfo = { id: string; seq: number; sales_sha256: string; parcels_sha256: string; sales_rows: number; parcels: number; tracts: number; created_at: string };

export type CorpusCommit = {
  salesIpc: Uint8Array;
  parcelsIpc: Uint8Array;
  salesRows: number;
  parcelRows: number;
  tracts: ReadonlyArray<{ geoid: string }>;
  listings: ReadonlyArray<{ listing_id: string }> | null; // null: leave stored listings alone
  reference: Record<string, unknown>; //                    table name → value, replaced one by one
  ingestRecord: (snapshotId: string, unchanged: boolean) => unknown;
  now: Date;
};

/** Writes the corpus; returns the snapshot id now current and whether the bytes equalled the current snapshot's. */
export function commitCorpus(env: RootDatabase, c: CorpusCommit): { snapshotId: string; unchanged: boolean } {
  const meta = openSubDb(env, DB_NAMES.meta);
  const sales = openSubDb<Uint8Array>(env, DB_NAMES.salesSnapshots);
  const parcels = openSubDb<Uint8Array>(env, DB_NAMES.parcels);
  const salesHash = sha256(c.salesIpc);
  const parcelsHash = sha256(c.parcelsIpc);
  const isIntact = (s: SnapshotInfo): boolean => verifySnapshotBytes(s.id, s, sales.getBinary(s.id), parcels.getBinary(s.id)).ok;
  return env.transactionSync(() => {
    const recorded = (meta.get(META_KEYS.snapshots) as SnapshotInfo[] | undefined) ?? [];
    // A damaged snapshot is never reused as "unchanged" nor kept: re-ingesting the same files replaces it.
    const damaged = recorded.filter((s) => !isIntact(s));
    const list = recorded.filter((s) => !damaged.includes(s));
    const current = meta.get(META_KEYS.currentSnapshot) as string | undefined;
    const same = list.find((s) => s.id === current && s.sales_sha256 === salesHash && s.parcels_sha256 === parcelsHash);
    const dropped = [...damaged];
    let snapshotId: string;
    if (same) snapshotId = same.id;
    else {
      const seq = ((meta.get(META_KEYS.seq) as number | undefined) ?? 0) + 1;
      snapshotId = `s-${String(seq).padStart(6, '0')}-${salesHash.slice(0, 12)}`;
      sales.putSync(snapshotId, Buffer.from(c.salesIpc.buffer, c.salesIpc.byteOffset, c.salesIpc.byteLength));
      parcels.putSync(snapshotId, Buffer.from(c.parcelsIpc.buffer, c.parcelsIpc.byteOffset, c.parcelsIpc.byteLength));
      list.push({ id: snapshotId, seq, sales_sha256: salesHash, parcels_sha256: parcelsHash, sales_rows: c.salesRows, parcels: c.parcelRows, tracts: c.tracts.length, created_at: c.now.toISOString() });
      meta.putSync(META_KEYS.seq, seq);
      meta.putSync(META_KEYS.currentSnapshot, snapshotId); // the switch
      dropped.push(...list.splice(0, Math.max(0, list.length - INGEST.v.snapshots_retained)));
    }
    for (const old of dropped) {
      sales.removeSync(old.id);
      parcels.removeSync(old.id);
    }
    meta.putSync(META_KEYS.snapshots, list);
    replaceAll(env, DB_NAMES.tracts, c.tracts.map((t) => [t.geoid, t]));
    if (c.listings !== null) replaceAll(env, DB_NAMES.listings, c.listings.map((l) => [l.listing_id, l]));
    const reference = openSubDb(env, DB_NAMES.reference);
    for (const [name, value] of Object.entries(c.reference)) reference.putSync(name, value);
    meta.putSync(META_KEYS.lastIngest, c.ingestRecord(snapshotId, !!same));
    return { snapshotId, unchanged: !!same };
  });
}

/** Inside the caller's transaction: the sub-db ends up holding exactly `entries`. */
function replaceAll(env: RootDatabase, name: typeof DB_NAMES.tracts | typeof DB_NAMES.listings, entries: Array<[string, unknown]>): void {
  const db = openSubDb(env, name);
  const keep = new Set(entries.map(([k]) => k));
  for (const key of Array.from(db.getKeys())) if (!keep.has(String(key))) db.removeSync(key);
  for (const [k, v] of entries) db.putSync(k, v);
}
