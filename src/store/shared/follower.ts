// A replica following the shared snapshot pointer: on a NOTIFY (and every snapshot_poll_ms, in case one was lost) it
// reads the pointer; when it names another snapshot than this store serves, it loads that snapshot's files from the
// shared source beside the current one, checks them against the sha256 in PostgreSQL's manifest, and only then
// switches (adoptSnapshot). A failed load leaves the old snapshot served and is reported (status, snapshot_replicas).
import { hostname } from 'node:os';
import { DISTRIBUTED } from '../../registry/groups/distributed.js';
import { AppError } from '../../errors/app-error.js';
import { adoptSnapshot, holdsIntactSnapshot } from '../adopt-snapshot.js';
import type { PgPool } from '../pg/pool.js';
import type { Store } from '../store.js';
import { listReplicas, readPointer, reportReplica, SNAPSHOT_CHANNEL, type ReplicaReport, type SnapshotPointer } from './pointer.js';
import { SNAPSHOT_FILES, type SnapshotSource } from './snapshot-source.js';
import { followChannel, type ChannelFollower } from '../pg/channel-follower.js';

export type FollowerStatus = {
  replica_id: string;
  /** The snapshot this replica serves now. */
  serving: string | null;
  /** The snapshot the shared pointer names (null before any publication or before the first check). */
  pointer: string | null;
  listening: boolean;
  last_check: string | null;
  last_error: string | null;
  /** Every replica's last report (snapshot_replicas) as of this replica's last check: what each one serves. */
  replicas: ReplicaReport[];
};

export type SnapshotFollower = { status(): FollowerStatus; check(): Promise<FollowerStatus>; stop(): Promise<void> };

export type FollowerOptions = { pool: PgPool; store: Store; source: SnapshotSource; replicaId?: string; pollMs?: number; onError?: (e: unknown) => void };

/** Loads and switches to the pointer's snapshot when this store serves another one. */
async function follow(store: Store, source: SnapshotSource, ptr: SnapshotPointer): Promise<void> {
  const id = ptr.snapshotId;
  store.env.resetReadTxn();
  if (store.currentSnapshotId() === id) return;
  const info = ptr.manifest.snapshot;
  if (holdsIntactSnapshot(store.env, id)) return void adoptSnapshot(store.env, info, null); // back to one still held
  const folder = await source.readManifest(id);
  if (folder.snapshot.sales_sha256 !== info.sales_sha256 || folder.snapshot.parcels_sha256 !== info.parcels_sha256) {
    throw new AppError('snapshot_unverified', `snapshot ${id}: the manifest in ${source.location} names other sha256 than the pointer in PostgreSQL`);
  }
  const [sales, parcels] = await Promise.all([source.readFile(id, SNAPSHOT_FILES.sales), source.readFile(id, SNAPSHOT_FILES.parcels)]);
  adoptSnapshot(store.env, info, { sales, parcels }); // verifies both against the pointer's sha256 before writing
}

/** Starts following: one check now (awaited), then on every NOTIFY and poll. stop() ends both and releases the listener. */
export async function startSnapshotFollower(o: FollowerOptions): Promise<SnapshotFollower> {
  const replicaId = o.replicaId ?? `${hostname()}:${process.pid}`;
  const st: FollowerStatus = { replica_id: replicaId, serving: o.store.currentSnapshotId(), pointer: null, listening: false, last_check: null, last_error: null, replicas: [] };
  const once = async (): Promise<void> => {
    let pointer = st.pointer;
    let error: string | null = null;
    try {
      const ptr = await readPointer(o.pool);
      pointer = ptr?.snapshotId ?? null;
      if (ptr) await follow(o.store, o.source, ptr);
    } catch (e) {
      error = (e as Error).message;
      o.onError?.(e);
    }
    o.store.env.resetReadTxn();
    const serving = o.store.currentSnapshotId();
    const detail = error ? `serving ${serving}; not switched to ${pointer}: ${error}` : `serving ${serving}`;
    await reportReplica(o.pool, replicaId, serving, detail).catch((e) => o.onError?.(e));
    const replicas = await listReplicas(o.pool).catch((e) => (o.onError?.(e), st.replicas));
    // Published together, once PostgreSQL has the report: a reader of the status finds the same in snapshot_replicas.
    Object.assign(st, { pointer, serving, last_error: error, last_check: new Date().toISOString(), replicas });
  };
  // One check at a time; a request during a check runs one more after it (it may have missed the newest pointer).
  let following: ChannelFollower<FollowerStatus> | null = null;
  following = await followChannel({
    pool: o.pool,
    channel: SNAPSHOT_CHANNEL,
    pollMs: o.pollMs ?? DISTRIBUTED.v.snapshot_poll_ms,
    check: async (): Promise<FollowerStatus> => {
      await once();
      return { ...st, listening: following?.listening() ?? false };
    },
    onError: o.onError,
  });
  return {
    status: () => ({ ...st, serving: o.store.currentSnapshotId(), listening: following!.listening() }), // live: a local ingest switches too
    check: following.check,
    stop: () => following!.stop(),
  };
}
