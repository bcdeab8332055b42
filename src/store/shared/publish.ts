// `avm snapshot publish`: the machine that ingests hands its current snapshot to the replicas: the Arrow IPC files and
// their manifest (sha256 of each) into the shared folder, written atomically, then the pointer in PostgreSQL moved
// (with a NOTIFY). The files land before the pointer names them, so no replica ever follows a pointer to missing files.
import type { PgPool } from '../pg/pool.js';
import type { Store } from '../store.js';
import { setPointer } from './pointer.js';
import type { SnapshotManifest, SnapshotSink } from './snapshot-source.js';

/** Publishes the store's current snapshot (verified first: a damaged one is refused, snapshot_unverified). */
export async function publishSnapshot(o: { pool: PgPool; store: Store; sink: SnapshotSink; now?: Date }): Promise<SnapshotManifest> {
  const sales = o.store.readSalesSnapshotBytes(); // throws corpus_unavailable / snapshot_unverified
  const parcelBytes = o.store.readParcelBytes(sales.id).bytes;
  const info = o.store.listSnapshots().find((s) => s.id === sales.id)!; // verified above, so listed
  const manifest: SnapshotManifest = { format: 1, snapshot: info, bytes: { sales: sales.bytes.byteLength, parcels: parcelBytes.byteLength }, published_at: (o.now ?? new Date()).toISOString() };
  await o.sink.writeSnapshot(manifest, sales.bytes, parcelBytes);
  await setPointer(o.pool, manifest);
  return manifest;
}

