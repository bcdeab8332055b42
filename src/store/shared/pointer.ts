// The shared snapshot pointer in PostgreSQL (migration 0300): the snapshot every replica should serve, changed with a
// NOTIFY on SNAPSHOT_CHANNEL so followers switch at once (they also poll, for a notification lost to a cut
// connection); and each replica's report of the snapshot it serves.
import type { PgPool } from '../pg/pool.js';
import type { SnapshotManifest } from './snapshot-source.js';

export const SNAPSHOT_CHANNEL = 'avm_snapshot';

export type SnapshotPointer = { snapshotId: string; manifest: SnapshotManifest; publishedAt: string };
export type ReplicaReport = { replica_id: string; snapshot_id: string | null; detail: string; seen_at: string };

/** The pointer, or null before any publication. */
export async function readPointer(pool: PgPool): Promise<SnapshotPointer | null> {
  const { rows } = await pool.query<{ snapshot_id: string; manifest: SnapshotManifest; published_at: Date }>('SELECT snapshot_id, manifest, published_at FROM snapshot_pointer WHERE singleton');
  return rows[0] ? { snapshotId: rows[0].snapshot_id, manifest: rows[0].manifest, publishedAt: rows[0].published_at.toISOString() } : null;
}

/** Moves the pointer and notifies the followers, in one transaction (the NOTIFY is delivered at commit). */
export async function setPointer(pool: PgPool, manifest: SnapshotManifest): Promise<void> {
  await pool.query(
    `WITH up AS (
       INSERT INTO snapshot_pointer (singleton, snapshot_id, manifest, published_at) VALUES (true, $1, $2, now())
       ON CONFLICT (singleton) DO UPDATE SET snapshot_id = EXCLUDED.snapshot_id, manifest = EXCLUDED.manifest, published_at = now()
       RETURNING snapshot_id)
     SELECT pg_notify($3, snapshot_id) FROM up`,
    [manifest.snapshot.id, JSON.stringify(manifest), SNAPSHOT_CHANNEL],
  );
}

export async function reportReplica(pool: PgPool, replicaId: string, snapshotId: string | null, detail: string): Promise<void> {
  await pool.query(
    `INSERT INTO snapshot_replicas (replica_id, snapshot_id, detail, seen_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (replica_id) DO UPDATE SET snapshot_id = EXCLUDED.snapshot_id, detail = EXCLUDED.detail, seen_at = now()`,
    [replicaId, snapshotId, detail],
  );
}

export async function listReplicas(pool: PgPool): Promise<ReplicaReport[]> {
  const { rows } = await pool.query<{ replica_id: string; snapshot_id: string | null; detail: string; seen_at: Date }>('SELECT replica_id, snapshot_id, detail, seen_at FROM snapshot_replicas ORDER BY replica_id');
  return rows.map((r) => ({ ...r, seen_at: r.seen_at.toISOString() }));
}
