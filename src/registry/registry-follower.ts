// A replica follows the shared model registry while it runs: on each NOTIFY of avm_model_registry (and every
// registry_poll_ms, for one lost to a cut connection) it compares the shared registry's stamp with the one it last
// mirrored and, when they differ, copies the registry into its own LMDB mirror (registry-sync.ts copyRegistry). Serving
// reads the champion from that mirror on every request (workers/stamp.ts), so a promotion or rollback made through
// any replica or `avm calibrate` reaches every replica's every door within one notification, not at its next restart.
import { DISTRIBUTED } from './groups/distributed.js';
import { followChannel, type ChannelFollower } from '../store/pg/channel-follower.js';
import type { PgPool } from '../store/pg/pool.js';
import { openPgRegistry } from './registry-pg.js';
import type { RegistryStore } from './registry-store.js';
import { copyRegistry } from './registry-sync.js';

export const REGISTRY_CHANNEL = 'avm_model_registry';

export type RegistryFollower = { check(): Promise<string | null>; stop(): Promise<void> };

export async function startRegistryFollower(o: { pool: PgPool; local: RegistryStore; pollMs?: number; onError?: (e: unknown) => void; onMirrored?: (stamp: string) => void }): Promise<RegistryFollower> {
  const shared = openPgRegistry(o.pool);
  let mirrored: string | null = null;
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
