import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getEventLog } from '../../src/events/log.js';
import { openOwnedStore } from '../../src/events/owned-records.js';
import { openUserState, type UserState } from '../../src/events/user-state.js';
import { AUTH_LIMITS } from '../../src/registry/groups/auth.js';
import { tempEnv, type TempEnv } from '../http/middleware/support.js';

let t: TempEnv;
let state: UserState;
const NOW = Date.UTC(2026, 10, 21, 9, 30);
beforeEach(() => {
  t = tempEnv();
  state = openUserState(t.env, { now: () => NOW });
});
afterEach(async () => t.dispose());

describe('saveFavorite(input, actor)', () => {
  it('stores durably, then appends favorite_saved carrying the stored record', async () => {
    const fav = await state.saveFavorite({ property_id: '16-01-100-001', payload: { note: 'corner lot' } }, 'key:abc');
    expect(fav).toEqual({ id: 'p:16-01-100-001', property_id: '16-01-100-001', address: null, payload: { note: 'corner lot' }, saved_at: '2026-11-21T09:30:00.000Z', actor: 'key:abc', owner_id: 'key:abc', seq: 1 });
    const events = getEventLog(t.env).readAfter(0, 10);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'favorite_saved', actor: 'key:abc', owner: 'key:abc', payload: fav });
    const reopened = openUserState(await t.reopen());
    expect((await reopened.listFavorites('key:abc'))).toEqual([fav]);
    expect(getEventLog(t.env).readAfter(0, 10)).toHaveLength(1);
  });

  it('replaces a favorite of the same address (case and spacing normalised)', async () => {
    await state.saveFavorite({ address: '123 N Main St' }, 'a');
    await state.saveFavorite({ address: '123  n main st' }, 'a');
    expect((await state.listFavorites('a'))).toHaveLength(1);
  });

  it('refuses a favorite with neither property_id nor address, or with extra keys', async () => {
    await expect(state.saveFavorite({ payload: {} }, 'a')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(state.saveFavorite({ property_id: 'x', extra: 1 }, 'a')).rejects.toMatchObject({ code: 'validation_failed' });
    expect(getEventLog(t.env).lastId()).toBe(0);
  });

  it('refuses key-forming values over user_state_key_max_chars with validation_failed, not an LMDB key-size error', async () => {
    // 3,000 characters would exceed LMDB's 1,978-byte key limit and used to surface as a plain Error (500).
    const max = AUTH_LIMITS.v.user_state_key_max_chars;
    expect((await state.saveFavorite({ property_id: 'x'.repeat(max) }, 'a')).property_id).toHaveLength(max);
    await expect(state.saveFavorite({ property_id: 'x'.repeat(max + 1) }, 'a')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(state.saveFavorite({ address: 'x'.repeat(3000) }, 'a')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(state.upsertPreset({ id: 'y'.repeat(3000), name: 'n', assumptions: {} }, 'a')).rejects.toMatchObject({ code: 'validation_failed' });
    expect(getEventLog(t.env).lastId()).toBe(1);
  });
});

describe('upsertPreset(input, actor)', () => {
  it('creates with a generated id, then updates in place keeping created_at', async () => {
    const created = await state.upsertPreset({ name: 'Conservative', assumptions: { rate: 7.5 } }, 'a');
    const updated = await state.upsertPreset({ id: created.id, name: 'Conservative v2', assumptions: { rate: 7.25 } }, 'a');
    expect(updated).toMatchObject({ id: created.id, name: 'Conservative v2', created_at: created.created_at });
    expect((await state.listPresets('a'))).toEqual([updated]);
    expect(getEventLog(t.env).readAfter(0, 10).map((e) => e.kind)).toEqual(['preset_updated', 'preset_updated']);
  });

  it('validates the assumptions as strictly as a deep_underwrite_asset call would, storing nothing invalid', async () => {
    for (const assumptions of [{ rate: -5 }, { down_pct: 1.5 }, { financing_type: 'moon' }, { hold_months: 2.5 }, { made_up: 1 }, { horizon_years: 0 }]) {
      await expect(state.upsertPreset({ name: 'bad', assumptions }, 'a'), JSON.stringify(assumptions)).rejects.toMatchObject({ code: 'validation_failed' });
    }
    expect((await state.listPresets('a'))).toEqual([]);
    expect((await state.upsertPreset({ name: 'ok', assumptions: { rate: 6.5, down_pct: 0.25, strategy: 'hold', horizon_years: 10 } }, 'a')).assumptions).toMatchObject({ rate: 6.5, strategy: 'hold' });
  });
});

describe('addNote(input, actor)', () => {
  it('accepts a 4000-character body and refuses 4001 or an empty body', async () => {
    const note = await state.addNote({ property_id: 'p1', body: 'x'.repeat(4000) }, 'a');
    expect(note.body).toHaveLength(4000);
    await expect(state.addNote({ property_id: 'p1', body: 'x'.repeat(4001) }, 'a')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(state.addNote({ entity_id: 'e1', body: '' }, 'a')).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await state.listNotes('a'))).toEqual([note]);
    expect(getEventLog(t.env).readAfter(0, 10).map((e) => e.kind)).toEqual(['note_added']);
  });
});

describe('one owner (issue 13)', () => {
  it('a favorite of the same property saved by another owner is a separate record, not a replacement', async () => {
    const mine = await state.saveFavorite({ property_id: 'LST-1', payload: { who: 'a' } }, 'key:aaaaaaaaaaaa');
    const theirs = await state.saveFavorite({ property_id: 'LST-1', payload: { who: 'b' } }, 'key:bbbbbbbbbbbb');
    expect((await state.listFavorites('key:aaaaaaaaaaaa'))).toEqual([mine]);
    expect((await state.listFavorites('key:bbbbbbbbbbbb'))).toEqual([theirs]);
  });

  it('a preset id is scoped to its owner: another owner writing the same id creates their own', async () => {
    const mine = await state.upsertPreset({ id: 'base', name: 'mine', assumptions: { rate: 7 } }, 'key:aaaaaaaaaaaa');
    const theirs = await state.upsertPreset({ id: 'base', name: 'theirs', assumptions: { rate: 9 } }, 'key:bbbbbbbbbbbb');
    expect((await state.listPresets('key:aaaaaaaaaaaa'))).toEqual([mine]);
    expect((await state.listPresets('key:bbbbbbbbbbbb'))).toEqual([theirs]);
  });

  it('every acknowledged note is readable back by its owner, beyond the stream\'s 1,000-record replay window', async () => {
    const n = AUTH_LIMITS.v.sse_replay_max + 50;
    const acked = await Promise.all(Array.from({ length: n }, (_, i) => state.addNote({ body: `note ${i}` }, 'key:aaaaaaaaaaaa')));
    const owned = openOwnedStore(t.env);
    const read: string[] = [];
    let beforeSeq: number | null = null;
    for (;;) {
      const page = owned.page('key:aaaaaaaaaaaa', { kinds: ['note'], limit: 100, beforeSeq });
      read.push(...page.items.map((i) => i.id));
      if (!page.more) break;
      beforeSeq = page.items.at(-1)!.seq;
    }
    expect(read).toHaveLength(n);
    expect(new Set(read)).toEqual(new Set(acked.map((a) => a.id)));
    expect(getEventLog(t.env).readAfter(0, AUTH_LIMITS.v.sse_replay_max)).toHaveLength(AUTH_LIMITS.v.sse_replay_max);
  });

  it('notes are listed to their owner only', async () => {
    const mine = await state.addNote({ body: 'mine' }, 'key:aaaaaaaaaaaa');
    await state.addNote({ body: 'theirs' }, 'key:bbbbbbbbbbbb');
    expect((await state.listNotes('key:aaaaaaaaaaaa'))).toEqual([mine]);
  });

  it('bounds what a favorite payload, a preset name and a note may store (validation_failed, nothing stored)', async () => {
    const big = { blob: 'x'.repeat(AUTH_LIMITS.v.favorite_payload_max_bytes) };
    await expect(state.saveFavorite({ property_id: 'LST-1', payload: big }, 'key:aaaaaaaaaaaa')).rejects.toMatchObject({ code: 'validation_failed' });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 2_000; i++) deep = { d: deep };
    await expect(state.saveFavorite({ property_id: 'LST-1', payload: deep }, 'key:aaaaaaaaaaaa')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(state.upsertPreset({ name: 'n'.repeat(100_000), assumptions: {} }, 'key:aaaaaaaaaaaa')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(state.addNote({ property_id: 'p'.repeat(100_000), body: 'b' }, 'key:aaaaaaaaaaaa')).rejects.toMatchObject({ code: 'validation_failed' });
    expect(getEventLog(t.env).lastId()).toBe(0);
  });
});
