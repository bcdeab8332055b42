// Durable user state written by the write tools (favorites, presets, notes) in the LMDB `user_state` sub-db.
// Each write resolves only after it is committed and flushed, then its sync-stream record is appended (also durable).
// Key prefixes favorite:/preset:/note: are ours; strategy profiles are stored by src/alerts under their own prefix.
import { randomUUID } from 'node:crypto';
import type { RootDatabase } from 'lmdb';
import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { getEventLog, type EventLog } from './log.js';

import { FavoriteInputSchema, NoteInputSchema, PresetInputSchema } from '../contracts/user-state.js';

export { FavoriteInputSchema, NoteInputSchema, PresetInputSchema };

export type Favorite = { id: string; property_id: string | null; address: string | null; payload: Record<string, unknown>; saved_at: string; actor: string };
export type Preset = { id: string; name: string; assumptions: Record<string, unknown>; created_at: string; updated_at: string; actor: string };
export type Note = { id: string; property_id: string | null; entity_id: string | null; body: string; created_at: string; actor: string };

export type UserState = {
  /** Saving the same property (id, else normalised address) again replaces the favorite. */
  saveFavorite(input: unknown, actor: string): Promise<Favorite>;
  /** Without `id` a new preset is created; with an existing `id` it is replaced, keeping created_at. */
  upsertPreset(input: unknown, actor: string): Promise<Preset>;
  addNote(input: unknown, actor: string): Promise<Note>;
  listFavorites(): Favorite[];
  listPresets(): Preset[];
  listNotes(): Note[];
};

export function openUserState(env: RootDatabase, opts: { now?: () => number; events?: EventLog } = {}): UserState {
  const db = openSubDb<Favorite | Preset | Note>(env, DB_NAMES.userState);
  const events = opts.events ?? getEventLog(env);
  const nowIso = (): string => new Date((opts.now ?? Date.now)()).toISOString();
  const durablePut = async (key: string, value: Favorite | Preset | Note): Promise<void> => {
    await db.put(key, value);
    await db.flushed;
  };
  const list = <T>(prefix: string): T[] => [...db.getRange({ start: prefix, end: `${prefix}\uffff` })].map(({ value }) => value as T);

  return {
    async saveFavorite(input, actor) {
      const v = parse(FavoriteInputSchema, input, 'favorite');
      const id = v.property_id !== undefined ? `p:${v.property_id}` : `a:${v.address!.toLowerCase().replace(/\s+/g, ' ')}`;
      const fav: Favorite = { id, property_id: v.property_id ?? null, address: v.address ?? null, payload: v.payload ?? {}, saved_at: nowIso(), actor };
      await durablePut(`favorite:${id}`, fav);
      await events.appendEvent({ kind: 'favorite_saved', payload: fav, actor });
      return fav;
    },
    async upsertPreset(input, actor) {
      const v = parse(PresetInputSchema, input, 'preset');
      const id = v.id ?? randomUUID();
      const prior = db.get(`preset:${id}`) as Preset | undefined;
      const at = nowIso();
      const preset: Preset = { id, name: v.name, assumptions: v.assumptions, created_at: prior?.created_at ?? at, updated_at: at, actor };
      await durablePut(`preset:${id}`, preset);
      await events.appendEvent({ kind: 'preset_updated', payload: preset, actor });
      return preset;
    },
    async addNote(input, actor) {
      const v = parse(NoteInputSchema, input, 'note');
      const note: Note = { id: randomUUID(), property_id: v.property_id ?? null, entity_id: v.entity_id ?? null, body: v.body, created_at: nowIso(), actor };
      await durablePut(`note:${note.id}`, note);
      await events.appendEvent({ kind: 'note_added', payload: note, actor });
      return note;
    },
    listFavorites: () => list<Favorite>('favorite:'),
    listPresets: () => list<Preset>('preset:'),
    listNotes: () => list<Note>('note:'),
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
