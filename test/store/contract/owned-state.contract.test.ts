// The OwnedState contract, on LMDB and on PostgreSQL: a write (prior, cap, record, stream record) commits whole or
// not at all, and reads per owner, per kind and by page answer the same.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors/app-error.js';
import type { EventRecord } from '../../../src/events/kinds.js';
import { BACKENDS, backendFactory, skipBackend } from './backends.js';

type Note = { id: string; body: string; created_at?: string };
const A = 'key:aaaaaaaaaaaa';
const B = 'key:bbbbbbbbbbbb';

describe.each(BACKENDS)('OwnedState on %s', (kind) => {
  describe.skipIf(skipBackend(kind))('contract', () => {
    const factory = backendFactory(kind);

    it('stores a record with its stream record, replaces it by id, and keeps owners apart', async () => {
      const { owned, events } = (await factory.open()).backend;
      const seen: EventRecord[] = [];
      const unsubscribe = events.subscribe((r) => seen.push(r));
      const first = await owned.write<Note>({ kind: 'note', owner: A, id: 'n1', build: () => ({ id: 'n1', body: 'one' }), event: (rec) => ({ kind: 'note_added', payload: rec, actor: A, owner: A }) });
      expect(first.value).toMatchObject({ id: 'n1', body: 'one', owner_id: A });
      expect(first.event).toMatchObject({ kind: 'note_added', actor: A, owner: A, payload: first.value });
      expect(seen.map((r) => r.id)).toEqual([first.event!.id]); // an acknowledged write is already with this process's subscribers
      const again = await owned.write<Note>({ kind: 'note', owner: A, id: 'n1', build: (prior) => ({ id: 'n1', body: `${prior!.body}+two` }) });
      expect(again).toMatchObject({ value: { body: 'one+two' }, event: null });
      expect(again.value.seq).toBeGreaterThan(first.value.seq);
      await owned.write<Note>({ kind: 'note', owner: B, id: 'n1', build: () => ({ id: 'n1', body: 'theirs' }) });
      expect(await owned.get<Note>('note', A, 'n1')).toEqual(again.value);
      expect(await owned.count('note', A)).toBe(1);
      expect((await owned.list<Note>('note', B)).map((n) => n.body)).toEqual(['theirs']);
      expect((await owned.listKind<Note>('note')).map((n) => n.owner_id)).toEqual([A, B]);
      expect(await owned.get('note', A, 'missing')).toBeUndefined();
      unsubscribe();
    });

    it('writes nothing when build refuses or the cap is reached, not even the stream record', async () => {
      const { owned, events } = (await factory.open()).backend;
      const cap = { max: 2, refusal: () => new AppError('validation_failed', 'at most 2') };
      for (const id of ['p1', 'p2']) await owned.write<Note>({ kind: 'profile', owner: A, id, build: () => ({ id, body: id }), cap, event: (rec) => ({ kind: 'strategy_profile_created', payload: rec, actor: A, owner: A }) });
      const before = await events.lastId();
      await expect(owned.write<Note>({ kind: 'profile', owner: A, id: 'p3', build: () => ({ id: 'p3', body: 'x' }), cap, event: (rec) => ({ kind: 'strategy_profile_created', payload: rec, actor: A, owner: A }) })).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(owned.write<Note>({ kind: 'profile', owner: A, id: 'p1', build: () => { throw new AppError('not_found', 'refused'); }, event: (rec) => ({ kind: 'strategy_profile_created', payload: rec, actor: A, owner: A }) })).rejects.toMatchObject({ code: 'not_found' });
      expect(await events.lastId()).toBe(before);
      expect(await owned.count('profile', A)).toBe(2);
      // replacing an id the owner holds is not a new record: the cap does not refuse it
      await owned.write<Note>({ kind: 'profile', owner: A, id: 'p2', build: () => ({ id: 'p2', body: 'again' }), cap });
      expect((await owned.get<Note>('profile', A, 'p2'))?.body).toBe('again');
    });

    it('lets only as many concurrent new records through as the cap allows', async () => {
      const { owned } = (await factory.open()).backend;
      const cap = { max: 3, refusal: () => new AppError('validation_failed', 'at most 3') };
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => owned.write<Note>({ kind: 'profile', owner: B, id: `c${i}`, build: () => ({ id: `c${i}`, body: '' }), cap })));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      expect(await owned.count('profile', B)).toBe(3);
    });

    it('pages an owner\'s records newest write first, across kinds, with a cursor', async () => {
      const { owned } = (await factory.open()).backend;
      const written = [];
      for (const [k, id] of [['note', 'a'], ['favorite', 'b'], ['note', 'c'], ['preset', 'd'], ['favorite', 'e']] as const) {
        written.push((await owned.write<Note>({ kind: k, owner: A, id, build: () => ({ id, body: id }) })).value);
      }
      await owned.write<Note>({ kind: 'note', owner: B, id: 'z', build: () => ({ id: 'z', body: 'z' }) });
      const p1 = await owned.page(A, { kinds: ['note', 'favorite', 'preset'], limit: 2, beforeSeq: null });
      expect(p1.items.map((i) => i.id)).toEqual(['e', 'd']);
      expect(p1.more).toBe(true);
      const p2 = await owned.page(A, { kinds: ['note', 'favorite', 'preset'], limit: 2, beforeSeq: p1.items[1].seq });
      expect(p2.items.map((i) => [i.kind, i.id])).toEqual([['note', 'c'], ['favorite', 'b']]);
      const p3 = await owned.page(A, { kinds: ['note', 'favorite', 'preset'], limit: 2, beforeSeq: p2.items[1].seq });
      expect(p3).toMatchObject({ items: [{ kind: 'note', id: 'a', record: written[0] }], more: false });
      expect((await owned.page(A, { kinds: ['favorite'], limit: 10, beforeSeq: null })).items.map((i) => i.id)).toEqual(['e', 'b']);
    });
  });
});
