// A replica's side of a shared snapshot: the sales and parcel bytes another machine ingested and published, written
// into this store beside the snapshots it already holds, under the publisher's id, and made current in ONE LMDB
// transaction, only after the bytes match the sha256 the publisher recorded. Workers follow the switch as they follow
// an ingest's (the stamp names the new id on the next task). Tracts, listings and reference tables stay this
// store's own (the same corpus files ingested on every machine, or restored with the data folder).
import type { RootDatabase } from 'lmdb';
import { AppError } from '../errors/app-error.js';
import { INGEST } from '../registry/groups/ingest.js';
import { DB_NAMES, openSubDb } from './env.js';
import { verifySnapshotBytes } from './integrity.js';
import { META_KEYS, type SnapshotInfo } from './snapshots.js';

export type Adoption = { snapshotId: string; loaded: boolean; previous: string | null };

/** True when `id` is in this store's snapshot list and its bytes still match their sha256. */
export function holdsIntactSnapshot(env: RootDatabase, id: string): boolean {
  const list = (openSubDb(env, DB_NAMES.meta).get(META_KEYS.snapshots) as SnapshotInfo[] | undefined) ?? [];
  const info = list.find((s) => s.id === id);
  return info !== undefined && verifySnapshotBytes(id, info, openSubDb<Uint8Array>(env, DB_NAMES.salesSnapshots).getBinary(id), openSubDb<Uint8Array>(env, DB_NAMES.parcels).getBinary(id)).ok;
}

/**
 * Makes snapshot `info.id` current. With `bytes`, they are checked against `info`'s sha256 first (snapshot_unverified
 * when they differ: nothing is written, the old snapshot stays current) and stored; without, the store must already
 * hold it intact (holdsIntactSnapshot). Retention as ingest's: the oldest beyond snapshots_retained are dropped.
 * `makeCurrent: false` only stores it (a score worker reads it by id, and leaves what the machine serves alone).
 */
export function adoptSnapshot(env: RootDatabase, info: SnapshotInfo, bytes: { sales: Uint8Array; parcels: Uint8Array } | null, o: { makeCurrent?: boolean } = {}): Adoption {
  const makeCurrent = o.makeCurrent ?? true;
  if (bytes) {
    const verdict = verifySnapshotBytes(info.id, info, bytes.sales, bytes.parcels);
    if (!verdict.ok) throw new AppError('snapshot_unverified', `${verdict.detail}; the published copy is not adopted`);
  } else if (!holdsIntactSnapshot(env, info.id)) {
    throw new AppError('corpus_unavailable', `snapshot ${info.id} is not held intact here and no bytes were given`);
  }
  const meta = openSubDb(env, DB_NAMES.meta);
  const sales = openSubDb<Buffer>(env, DB_NAMES.salesSnapshots);
  const parcels = openSubDb<Buffer>(env, DB_NAMES.parcels);
  const buf = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return env.transactionSync(() => {
    const previous = (meta.get(META_KEYS.currentSnapshot) as string | undefined) ?? null;
    const list = ((meta.get(META_KEYS.snapshots) as SnapshotInfo[] | undefined) ?? []).filter((s) => s.id !== info.id || !bytes);
    if (bytes) {
      sales.putSync(info.id, buf(bytes.sales));
      parcels.putSync(info.id, buf(bytes.parcels));
      list.push(info);
      list.sort((a, b) => a.seq - b.seq);
      // A later local ingest numbers its snapshot after every adopted one (ids never collide).
      meta.putSync(META_KEYS.seq, Math.max((meta.get(META_KEYS.seq) as number | undefined) ?? 0, info.seq));
    }
    if (makeCurrent) meta.putSync(META_KEYS.currentSnapshot, info.id); // the switch
    const current = makeCurrent ? info.id : previous;
    // Never the snapshot just adopted nor the one served.
    const dropped = list.length > INGEST.v.snapshots_retained ? list.filter((s) => s.id !== info.id && s.id !== current).slice(0, list.length - INGEST.v.snapshots_retained) : [];
    for (const old of dropped) {
      sales.removeSync(old.id);
      parcels.removeSync(old.id);
    }
    meta.putSync(META_KEYS.snapshots, list.filter((s) => !dropped.includes(s)));
    return { snapshotId: info.id, loaded: bytes !== null, previous };
  });
}
