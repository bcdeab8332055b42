// Durable user state written by the write tools (favorites, presets, notes), stored per owner (owned-state.ts, on
// LMDB or PostgreSQL). Each write and its sync-stream record commit in one transaction and resolve once durable;
// strategy profiles are stored by src/alerts in the same owned state.
import { randomUUID } from 'node:crypto';
import type { RootDatabase } from 'lmdb';
import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { getEventLog } from './log.js';
import type { EventKind } from './kinds.js';
import type { Owned, StateKind } from './owned-records.js';
import { lmdbOwnedState, type OwnedState } from './owned-state.js';

import { FavoriteInputSchema, NoteInputSchema, PresetInputSchema } from '../contracts/user-state.js';

export { FavoriteInputSchema, NoteInputSchema, PresetInputSchema };

/** `actor` is the key that wrote the record (`key:<id>`); `owner_id` (OwnedFields) the owner it belongs to. */
export type Favorite = Owned<{ id: string; property_id: string | null; address: string | null; payload: Record<string, unknown>; saved_at: string; actor: string }>;
export type Preset = Owned<{ id: string; name: string; assumptions: Record<string, unknown>; created_at: string; updated_at: string; actor: string }>;
export type Note = Owned<{ id: string; property_id: string | null; entity_id: string | null; body: string; created_at: string; actor: string }>;

/** Every write takes the writing key (`actor`) and the owner it writes for (the key's owner; by default the actor). */
export type UserState = {
  /** Saving the same property (id, else normalised address) again replaces the owner's favorite. */
  saveFavorite(input: unknown, actor: string, owner?: string): Promise<Favorite>;
  /** Without `id` a new preset is created; with an id the owner already holds it is replaced, keeping created_at. */
  upsertPreset(input: unknown, actor: string, owner?: string): Promise<Preset>;
  addNote(input: unknown, actor: string, owner?: string): Promise<Note>;
  listFavorites(owner: string): Promise<Favorite[]>;
  listPresets(owner: string): Promise<Preset[]>;
  listNotes(owner: string): Promise<Note[]>;
};

/** The user state of an LMDB environment (its event log opened with `now` when this is its first use). */
export function openUserState(env: RootDatabase, opts: { now?: () => number } = {}): UserState {
  getEventLog(env, opts);
  return userStateOver(lmdbOwnedState(env), opts);
}

export function userStateOver(owned: OwnedState, opts: { now?: () => number } = {}): UserState {
  const nowIso = (): string => new Date((opts.now ?? Date.now)()).toISOString();
  /** Stores the record built from the owner's prior one and appends its stream record, in one transaction. */
  const write = async <T extends object>(kind: StateKind, event: EventKind, owner: string, actor: string, id: string, build: (prior: Owned<T> | undefined) => T): Promise<Owned<T>> => {
    const { value } = await owned.write<T>({ kind, owner, id, build, event: (rec) => ({ kind: event, payload: rec, actor, owner }) });
    return value;
  };

  return {
    async saveFavorite(input, actor, owner = actor) {
      const v = parse(FavoriteInputSchema, input, 'favorite');
      const id = v.property_id !== undefined ? `p:${v.property_id}` : `a:${v.address!.toLowerCase().replace(/\s+/g, ' ')}`;
      return write('favorite', 'favorite_saved', owner, actor, id, () => ({ id, property_id: v.property_id ?? null, address: v.address ?? null, payload: v.payload ?? {}, saved_at: nowIso(), actor }));
    },
    async upsertPreset(input, actor, owner = actor) {
      const v = parse(PresetInputSchema, input, 'preset');
      const id = v.id ?? randomUUID();
      const at = nowIso();
      return write<Omit<Preset, 'owner_id' | 'seq'>>('preset', 'preset_updated', owner, actor, id, (prior) => ({
        id, name: v.name, assumptions: v.assumptions, created_at: prior?.created_at ?? at, updated_at: at, actor,
      }));
    },
    async addNote(input, actor, owner = actor) {
      const v = parse(NoteInputSchema, input, 'note');
      const id = randomUUID();
      return write('note', 'note_added', owner, actor, id, () => ({ id, property_id: v.property_id ?? null, entity_id: v.entity_id ?? null, body: v.body, created_at: nowIso(), actor }));
    },
    listFavorites: async (owner) => owned.list('favorite', owner),
    listPresets: async (owner) => owned.list('preset', owner),
    listNotes: async (owner) => owned.list('note', owner),
  };
}

function parse<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const r = schema.safeParse(input);
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message }));
    throw new AppError('validation_failed', `invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { details: issues });
  }
  return r.data;
}
