// The alerts' view of the state: the outbox sub-db of the LMDB environment (alerts, dead letters, dedupe and digest
// state) and profiles in the owned user state (kind `profile`, per owner; in PostgreSQL when the service runs on it,
// src/store/backend.ts). Writes are acknowledged only once flushed to disk.
import type { Database, RootDatabase } from 'lmdb';
import { lmdbOwnedState, type OwnedState } from '../events/owned-state.js';
import { DB_NAMES, openSubDb } from '../store/env.js';

export type AlertStore = {
  env: RootDatabase;
  /** Keys: `alert:<id>` outbox records, `seen:<profileRef>:<listingId>` dedupe, `digest:<profileRef>` last push day. */
  outbox: Database<unknown, string | number>;
  /** Stored alert profiles: kind `profile` of the owned user state (beside favorites, presets, notes). */
  owned: OwnedState;
};

export const KEY_PREFIX = { alert: 'alert:', seen: 'seen:', digest: 'digest:' } as const;

/** `owned`: where profiles live; default the environment's own owned state. */
export function openAlertStore(env: RootDatabase, owned: OwnedState = lmdbOwnedState(env)): AlertStore {
  return { env, outbox: openSubDb(env, DB_NAMES.outbox), owned };
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
