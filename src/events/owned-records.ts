// Owner-scoped user state (DESIGN, "One owner"): every favorite, note, preset and profile is stored under the owner of
// the key that wrote it, with a per-owner index by last write for newest-first pages. Writes run inside the caller's
// transaction, so a check and its write are one; nothing here reads across owners except the alerts' listKind.
import type { Database, RootDatabase } from 'lmdb';
import { openKeyStore } from '../auth/keys.js';
import { STATE_KINDS, type StateKind } from '../contracts/private.js';
import { AppError } from '../errors/app-error.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { migrateLegacyState } from './owned-legacy.js';

export { STATE_KINDS, type StateKind };

/** What every stored record carries besides its own fields: its owner and its place in the owner's write order. */
export type OwnedFields = { owner_id: string; seq: number };
export type Owned<T> = T & OwnedFields;

/** The owner of records without a key owner (legacy records whose writer was not a key): no caller resolves to it. */
export const UNOWNED = 'unowned';

// Key layout of the user_state sub-db. `/` never occurs in an owner (`key:<hex>`) or a kind, and the id comes last, so
// every prefix below is unambiguous whatever the id holds:
//   rec/<kind>/<owner>/<id>     the record
//   idx/<owner>/<kind>/<seq>    → id, seq zero-padded to 16 digits so text order is numeric order
//   #seq                        the last seq handed out (one counter for the environment)
const SEQ_KEY = '#seq';
const SEQ_DIGITS = 16;
const recPrefix = (kind: StateKind, owner: string): string => `rec/${kind}/${owner}/`;
const idxPrefix = (owner: string, kind: StateKind): string => `idx/${owner}/${kind}/`;
const idxKey = (owner: string, kind: StateKind, seq: number): string => `${idxPrefix(owner, kind)}${String(seq).padStart(SEQ_DIGITS, '0')}`;
/** The first key after every key under `prefix` (which ends in `/`; `0` is the code point after `/`). */
const afterPrefix = (prefix: string): string => `${prefix.slice(0, -1)}0`;

export type PageItem = { kind: StateKind; id: string; seq: number; record: Owned<Record<string, unknown>> };

export type OwnedStore = {
  db: Database<unknown, string | number>;
  get<T>(kind: StateKind, owner: string, id: string): Owned<T> | undefined;
  /** Inside a write transaction only: stores `value` as the owner's newest record of that kind and id. */
  putInTxn<T extends object>(kind: StateKind, owner: string, id: string, value: T): Owned<T>;
  /** How many records of a kind the owner holds (counted from the index, inside or outside a transaction). */
  count(kind: StateKind, owner: string): number;
  /** The owner's records of a kind, in id order. */
  list<T>(kind: StateKind, owner: string): Array<Owned<T>>;
  /** Every owner's records of a kind (the alerts matcher walks every active profile). */
  listKind<T>(kind: StateKind): Array<Owned<T>>;
  /** The owner's records, newest write first, with seq below `beforeSeq`; `more` when another page follows. */
  page(owner: string, o: { kinds: readonly StateKind[]; limit: number; beforeSeq: number | null }): { items: PageItem[]; more: boolean };
};

const STORES = new WeakMap<RootDatabase, OwnedStore>();

/** The owned store of an environment, opened once; the first open moves records stored under the old global keys. */
export function openOwnedStore(env: RootDatabase): OwnedStore {
  let store = STORES.get(env);
  if (!store) {
    store = createOwnedStore(openSubDb(env, DB_NAMES.userState));
    const keys = openKeyStore(env);
    migrateLegacyState(store, (actor) => (typeof actor === 'string' && /^key:[^/]+$/.test(actor) ? `key:${keys.ownerIdOf(actor.slice(4))}` : UNOWNED));
    STORES.set(env, store);
  }
  return store;
}

function checkOwner(owner: string): string {
  if (typeof owner !== 'string' || owner === '' || owner.includes('/')) throw new AppError('internal_error', `not an owner: ${String(owner)}`);
  return owner;
}

function createOwnedStore(db: Database<unknown, string | number>): OwnedStore {
  const values = <T>(prefix: string): T[] => Array.from(db.getRange({ start: prefix, end: afterPrefix(prefix) }), (e) => e.value as T);
  const recKey = (kind: StateKind, owner: string, id: string): string => `${recPrefix(kind, checkOwner(owner))}${id}`;
  const newestIds = (owner: string, kind: StateKind, beforeSeq: number | null, limit: number): Array<{ kind: StateKind; id: string; seq: number }> => {
    const prefix = idxPrefix(owner, kind);
    const start = beforeSeq === null ? afterPrefix(prefix) : idxKey(owner, kind, beforeSeq - 1);
    const out: Array<{ kind: StateKind; id: string; seq: number }> = [];
    for (const { key, value } of db.getRange({ start, end: prefix, reverse: true, limit })) {
      if (typeof key === 'string' && key.startsWith(prefix)) out.push({ kind, id: value as string, seq: Number(key.slice(prefix.length)) });
    }
    return out;
  };
  return {
    db,
    get: <T>(kind: StateKind, owner: string, id: string) => db.get(recKey(kind, owner, id)) as Owned<T> | undefined,
    putInTxn<T extends object>(kind: StateKind, owner: string, id: string, value: T): Owned<T> {
      const key = recKey(kind, owner, id);
      const prior = db.get(key) as OwnedFields | undefined;
      if (prior) db.remove(idxKey(owner, kind, prior.seq));
      const seq = ((db.get(SEQ_KEY) as number | undefined) ?? 0) + 1;
      const rec: Owned<T> = { ...value, owner_id: owner, seq };
      db.put(SEQ_KEY, seq);
      db.put(key, rec);
      db.put(idxKey(owner, kind, seq), id);
      return rec;
    },
    count: (kind, owner) => db.getKeysCount({ start: idxPrefix(checkOwner(owner), kind), end: afterPrefix(idxPrefix(owner, kind)) }),
    list: <T>(kind: StateKind, owner: string) => values<Owned<T>>(recPrefix(kind, checkOwner(owner))),
    listKind: <T>(kind: StateKind) => values<Owned<T>>(`rec/${kind}/`),
    page(owner, o) {
      checkOwner(owner);
      const merged = o.kinds.flatMap((k) => newestIds(owner, k, o.beforeSeq, o.limit + 1)).sort((a, b) => b.seq - a.seq);
      const items: PageItem[] = [];
      for (const ref of merged.slice(0, o.limit)) {
        const record = db.get(recKey(ref.kind, owner, ref.id)) as Owned<Record<string, unknown>> | undefined;
        if (record) items.push({ ...ref, record });
      }
      return { items, more: merged.length > o.limit };
    },
  };
}
