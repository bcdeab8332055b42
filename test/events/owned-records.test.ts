import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openKeyStore } from '../../src/auth/keys.js';
import { openOwnedStore, UNOWNED } from '../../src/events/owned-records.js';
import { DB_NAMES, openSubDb } from '../../src/store/env.js';
import { tempEnv, type TempEnv } from '../http/middleware/support.js';

let t: TempEnv;
beforeEach(() => {
  t = tempEnv();
});
afterEach(async () => t.dispose());

const write = (kind: 'favorite' | 'note' | 'preset' | 'profile', owner: string, id: string, value: object) => {
  const store = openOwnedStore(t.env);
  return store.db.transaction(() => store.putInTxn(kind, owner, id, value));
};

describe('putInTxn(kind, owner, id, value) and page(owner, ...)', () => {
  it('pages an owner\'s records newest write first; a rewrite moves a record to the front and keeps one copy', async () => {
    await write('note', 'key:a', 'n1', { body: 1 });
    await write('favorite', 'key:a', 'p:1', { v: 1 });
    await write('note', 'key:b', 'n1', { body: 'other owner' });
    await write('note', 'key:a', 'n2', { body: 2 });
    await write('favorite', 'key:a', 'p:1', { v: 2 });
    const store = openOwnedStore(t.env);
    const all = store.page('key:a', { kinds: ['favorite', 'note', 'preset', 'profile'], limit: 10, beforeSeq: null });
    expect(all.items.map((i) => [i.kind, i.id, i.seq])).toEqual([['favorite', 'p:1', 5], ['note', 'n2', 4], ['note', 'n1', 1]]);
    expect(all.items[0].record).toEqual({ v: 2, owner_id: 'key:a', seq: 5 });
    expect(all.more).toBe(false);
    const first = store.page('key:a', { kinds: ['note', 'favorite'], limit: 2, beforeSeq: null });
    expect([first.items.map((i) => i.seq), first.more]).toEqual([[5, 4], true]);
    expect(store.page('key:a', { kinds: ['note', 'favorite'], limit: 2, beforeSeq: 4 }).items.map((i) => i.seq)).toEqual([1]);
    expect(store.count('note', 'key:a')).toBe(2);
    expect(store.listKind('note').map((r) => r.owner_id).sort()).toEqual(['key:a', 'key:a', 'key:b']);
  });

  it('refuses an owner containing the key separator (no owner can reach into another\'s key range)', async () => {
    await expect(write('note', 'key:a/../b', 'n', {})).rejects.toMatchObject({ code: 'internal_error' });
  });
});

describe('records stored under the old global keys (before one owner)', () => {
  it('are moved once, at open, under the owner their record names (through key rotation); no key → unowned', async () => {
    const keys = openKeyStore(t.env);
    const old = await keys.createKey({ scopes: ['write-state'] });
    const db = openSubDb(t.env, DB_NAMES.userState);
    const keysDb = openSubDb(t.env, DB_NAMES.keys);
    // A key stored before keys named their owner, then rotated: its successor's owner is found by walking rotated_from.
    const { owner_id: _o, ...legacyKey } = keysDb.get(old.key.id) as Record<string, unknown>;
    await keysDb.put(old.key.id, legacyKey);
    const rotated = await keys.rotateKey(old.key.id);
    await db.transaction(() => {
      db.put('favorite:p:LST-1', { id: 'p:LST-1', property_id: 'LST-1', address: null, payload: {}, saved_at: '2026-01-02T00:00:00.000Z', actor: `key:${rotated.key.id}` });
      db.put('preset:base', { id: 'base', name: 'b', assumptions: {}, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-03T00:00:00.000Z', actor: `key:${old.key.id}` });
      db.put('note:n-1', { id: 'n-1', property_id: null, entity_id: null, body: 'written anonymously', created_at: '2026-01-01T00:00:00.000Z', actor: 'anonymous' });
      db.put('profile:p1', { id: 'p1', owner_id: `key:${old.key.id}`, name: 'legacy', created_at: '2026-01-04T00:00:00.000Z', updated_at: '2026-01-04T00:00:00.000Z' });
    });
    const owner = `key:${old.key.id}`;
    const store = openOwnedStore(t.env);
    const page = store.page(owner, { kinds: ['favorite', 'note', 'preset', 'profile'], limit: 10, beforeSeq: null });
    expect(page.items.map((i) => [i.kind, i.id])).toEqual([['profile', 'p1'], ['preset', 'base'], ['favorite', 'p:LST-1']]);
    expect(store.get('profile', owner, 'p1')).toMatchObject({ ref: 'p1', owner_id: owner, name: 'legacy' });
    expect(store.list<{ body: string }>('note', UNOWNED).map((n) => n.body)).toEqual(['written anonymously']);
    expect([...db.getKeys({ start: 'favorite:', end: 'q' })].filter((k) => !String(k).startsWith('idx/') && !String(k).startsWith('rec/'))).toEqual([]);
    // Reopening moves nothing twice.
    const again = openOwnedStore(await t.reopen());
    expect(again.page(owner, { kinds: ['favorite', 'note', 'preset', 'profile'], limit: 10, beforeSeq: null }).items).toHaveLength(3);
  });
});
