// The alerts' view of the one LMDB environment: the outbox sub-db (alerts, dead letters, dedupe and digest state)
// and profiles in the owned user state (kind `profile`, per owner). Writes are acknowledged only once flushed to disk.
import type { Database, RootDatabase } from 'lmdb';
import { openOwnedStore, type OwnedStore } from '../events/owned-records.js';
import { DB_NAMES, openSubDb } from '../store/env.js';

export type AlertStore = {
  env: RootDatabase;
  /** Keys: `alert:<id>` outbox records, `seen:<profileRef>:<listingId>` dedupe, `digest:<profileRef>` last push day. */
  outbox: Database<unknown, string | number>;
  /** Stored alert profiles: kind `profile` of the owned user state (beside favorites, presets, notes). */
  owned: OwnedStore;
};

export const KEY_PREFIX = { alert: 'alert:', seen: 'seen:', digest: 'digest:' } as const;

export function openAlertStore(env: RootDatabase): AlertStore {
  return { env, outbox: openSubDb(env, DB_NAMES.outbox), owned: openOwnedStore(env) };
}

/** Waits until everything written so far is committed AND fsynced (overlappingSync resolves puts on commit only). */
export async function flushed(store: AlertStore): Promise<void> {
  await store.env.committed;
  await store.env.flushed;
}

/** Every value under a string key prefix, in key order. `;` is the code point after `:`, closing the range. */
export function valuesWithPrefix<T>(db: Database<unknown, string | number>, prefix: string): T[] {
  if (!prefix.endsWith(':')) throw new Error(`prefix must end with ':' (got ${prefix})`);
  const end = `${prefix.slice(0, -1)};`;
  return Array.from(db.getRange({ start: prefix, end }), (e) => e.value as T);
}
