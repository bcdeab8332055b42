// The alerts' view of the one LMDB environment: the outbox sub-db (alerts, dead letters, dedupe and digest state)
// and profiles in user_state under `profile:<id>`. Writes here are acknowledged only once flushed to disk.
import type { Database, RootDatabase } from 'lmdb';
import { DB_NAMES, openSubDb } from '../store/env.js';

export type AlertStore = {
  env: RootDatabase;
  /** Keys: `alert:<id>` outbox records, `seen:<profileId>:<listingId>` dedupe, `digest:<profileId>` last push day. */
  outbox: Database<unknown, string | number>;
  /** Keys: `profile:<id>` stored alert profiles (shared sub-db with favorites, presets, notes). */
  userState: Database<unknown, string | number>;
};

export const KEY_PREFIX = { alert: 'alert:', seen: 'seen:', digest: 'digest:', profile: 'profile:' } as const;

export function openAlertStore(env: RootDatabase): AlertStore {
  return { env, outbox: openSubDb(env, DB_NAMES.outbox), userState: openSubDb(env, DB_NAMES.userState) };
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
