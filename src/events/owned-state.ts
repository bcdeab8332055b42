// Owned user state (favorites, notes, presets, profiles) as the service uses it, whichever backend holds it: a write
// is a read of the owner's prior record, an optional per-owner cap, the new record and (optionally) its stream record,
// all committed together or not at all; reads are per owner (and, for the alerts matcher, per kind). lmdbOwnedState is
// the embedded backend over owned-records.ts and the LMDB event log; PostgreSQL: src/store/pg/owned-state.ts.
import type { RootDatabase } from 'lmdb';
import type { AppError } from '../errors/app-error.js';
import type { Awaitable } from '../store/awaitable.js';
import type { EventRecord } from './kinds.js';
import { getEventLog, type AppendInput } from './log.js';
import { openOwnedStore, type Owned, type PageItem, type StateKind } from './owned-records.js';

export type OwnedWrite<T extends object> = {
  kind: StateKind;
  owner: string;
  id: string;
  /** The record to store, given the owner's prior one of that id; may throw (a refusal): nothing is written. */
  build(prior: Owned<T> | undefined): T;
  /** A new id past `max` records of the kind for the owner is refused with `refusal()` (checked in the transaction). */
  cap?: { max: number; refusal: () => AppError };
  /** The stream record appended with the write; none when absent. */
  event?: (stored: Owned<T>) => AppendInput;
};

export type OwnedState = {
  /** Resolves once the record (and its stream record) is durable and this process's subscribers have the record. */
  write<T extends object>(w: OwnedWrite<T>): Promise<{ value: Owned<T>; event: EventRecord | null }>;
  get<T>(kind: StateKind, owner: string, id: string): Awaitable<Owned<T> | undefined>;
  count(kind: StateKind, owner: string): Awaitable<number>;
  /** The owner's records of a kind, in id order. */
  list<T>(kind: StateKind, owner: string): Awaitable<Array<Owned<T>>>;
  /** Every owner's records of a kind (the alerts matcher walks every active profile). */
  listKind<T>(kind: StateKind): Awaitable<Array<Owned<T>>>;
  /** The owner's records, newest write first, with seq below `beforeSeq`; `more` when another page follows. */
  page(owner: string, o: { kinds: readonly StateKind[]; limit: number; beforeSeq: number | null }): Awaitable<{ items: PageItem[]; more: boolean }>;
};

const STATES = new WeakMap<RootDatabase, OwnedState>();

/** The owned state of an LMDB environment (one per environment; writes with a stream record go through its log). */
export function lmdbOwnedState(env: RootDatabase): OwnedState {
  let state = STATES.get(env);
  if (!state) {
    const owned = openOwnedStore(env);
    const log = getEventLog(env);
    const writeInTxn = <T extends object>(w: OwnedWrite<T>): Owned<T> => {
      const prior = owned.get<T>(w.kind, w.owner, w.id);
      if (!prior && w.cap && owned.count(w.kind, w.owner) >= w.cap.max) throw w.cap.refusal();
      return owned.putInTxn(w.kind, w.owner, w.id, w.build(prior));
    };
    state = {
      async write<T extends object>(w: OwnedWrite<T>) {
        const toEvent = w.event;
        if (toEvent) {
          const { rec, value } = await log.appendWith(() => {
            const value = writeInTxn(w);
            return { event: toEvent(value), value };
          });
          return { value, event: rec };
        }
        const value = await owned.db.childTransaction(() => writeInTxn(w));
        await owned.db.flushed;
        return { value, event: null };
      },
      get: (kind, owner, id) => owned.get(kind, owner, id),
      count: (kind, owner) => owned.count(kind, owner),
      list: (kind, owner) => owned.list(kind, owner),
      listKind: (kind) => owned.listKind(kind),
      page: (owner, o) => owned.page(owner, o),
    };
    STATES.set(env, state);
  }
  return state;
}
