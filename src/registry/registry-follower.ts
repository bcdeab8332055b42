// A replica's model registry on PostgreSQL: at start it syncs (registry-sync.ts: seeds an empty shared registry from
// its own, else mirrors the shared one), then it follows the shared registry while it runs: on each NOTIFY of avm_model_registry (and every
// registry_poll_ms, for one lost to a cut connection) it compares the shared registry's stamp with the one it last
// mirrored and, when they differ, copies the registry into its own LMDB mirror (registry-sync.ts copyRegistry). Serving
// reads the champion from that mirror on every request (workers/stamp.ts), so a promotion or rollback made through
// any replica or `avm calibrate` reaches every replica's every door within one notification, not at its next restart.
import { DISTRIBUTED } from './groups/distributed.js';
import { followChannel, type ChannelFollower } from '../store/pg/channel-follower.js';
import type { PgPool } from '../store/pg/pool.js';
import { openPgRegistry } from './registry-pg.js';
import type { RegistryStore } from './registry-store.js';
import { copyRegistry, syncRegistry } from './registry-sync.js';

export const REGISTRY_CHANNEL = 'avm_model_registry';

export type RegistryFollower = { check(): Promise<string | null>; stop(): Promise<void> };

type FollowerOptions = {
  pool: PgPool; local: RegistryStore; pollMs?: number; onError?: (e: unknown) => void;
  onSynced?: (sync: Awaited<ReturnType<typeof syncRegistry>>) => void; onMirrored?: (stamp: string) => void;
};

/** Syncs once (awaited: serving must not start before its champion is mirrored), then follows. */
export async function startRegistryFollower(o: FollowerOptions): Promise<RegistryFollower> {
  const shared = openPgRegistry(o.pool);
  // The stamp read before the sync: what the sync mirrored is at least that new, so the first check copies again only
  // when the registry changed since (or when this replica's sync seeded it).
  let mirrored = await shared.stamp();
  o.onSynced?.(await syncRegistry(shared, o.local));
  const follower: ChannelFollower<string | null> = await followChannel({
    pool: o.pool,
    channel: REGISTRY_CHANNEL,
    pollMs: o.pollMs ?? DISTRIBUTED.v.registry_poll_ms,
    check: async () => {
      try {
        const stamp = await shared.stamp(); // read before the copy: a change during it is seen by the next check
        if (stamp !== null && stamp !== mirrored) {
          await copyRegistry(shared, o.local);
          mirrored = stamp;
          o.onMirrored?.(stamp);
        }
      } catch (e) {
        o.onError?.(e);
      }
      return mirrored;
    },
    onError: o.onError,
  });
  return { check: follower.check, stop: follower.stop };
}
