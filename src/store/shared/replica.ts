// A service replica's snapshot following, started with the service when both AVM_DATABASE_URL and AVM_SNAPSHOT_DIR
// are set (a replica with only the database serves its own ingested snapshot). Self-contained (its own small pool: one
// LISTEN connection, one for reads and reports) so that the backend selection can start it beside the other shared
// pieces.
import type { Config } from '../../config.js';
import { openPgPool } from '../pg/pool.js';
import type { Store } from '../store.js';
import { migrateReachable } from './command.js';
import { startSnapshotFollower, type SnapshotFollower } from './follower.js';
import { snapshotFolder } from './snapshot-source.js';

export type ReplicaSnapshots = { follower: SnapshotFollower; close(): Promise<void> };

/** Null when the service is not configured as a replica of a shared snapshot folder. */
export async function startReplicaSnapshots(config: Pick<Config, 'databaseUrl' | 'snapshotDir'>, store: Store, onError: (e: unknown) => void): Promise<ReplicaSnapshots | null> {
  if (!config.databaseUrl || !config.snapshotDir) return null;
  const pool = openPgPool(config.databaseUrl, { max: 2, applicationName: 'avm-snapshots' });
  try {
    await migrateReachable(pool);
    const follower = await startSnapshotFollower({ pool, store, source: snapshotFolder(config.snapshotDir), onError });
    return {
      follower,
      close: async () => {
        await follower.stop();
        await pool.end();
      },
    };
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
}
