// The EventLog contract, on LMDB and on PostgreSQL: increasing ids, subscribers in id order, bounded reads, pruning.
import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../../../src/events/kinds.js';
import { BACKENDS, backendFactory, skipBackend } from './backends.js';

const NOW = Date.parse('2026-11-20T10:00:00Z');
const fly = (n: number) => ({ kind: 'fly_to' as const, payload: { n }, actor: 'anonymous' });

describe.each(BACKENDS)('EventLog on %s', (kind) => {
  describe.skipIf(skipBackend(kind))('contract', () => {
    const factory = backendFactory(kind);

    it('appends with increasing ids, hands subscribers every record in id order, and reads after an id', async () => {
      const { events } = (await factory.open({ now: () => NOW })).backend;
      expect(await events.lastId()).toBe(0);
      const seen: number[] = [];
      const off = events.subscribe((r) => seen.push(r.id));
      expect(events.listenerCount()).toBe(1);
      const recs: EventRecord[] = await Promise.all(Array.from({ length: 12 }, (_, i) => events.appendEvent(fly(i))));
      const ids = recs.map((r) => r.id).sort((a, b) => a - b);
      expect(new Set(ids).size).toBe(12);
      expect(seen).toEqual(ids);
      expect(recs[0]).toMatchObject({ kind: 'fly_to', at: new Date(NOW).toISOString(), actor: 'anonymous' });
      expect(await events.lastId()).toBe(ids[11]);
      expect((await events.readAfter(ids[3], 100)).map((r) => r.id)).toEqual(ids.slice(4));
      expect((await events.readAfter(0, 3)).map((r) => r.id)).toEqual(ids.slice(9)); // only the newest `max`
      expect([...(await events.newestAfter(ids[7], 3))].map((r) => r.id)).toEqual([ids[11], ids[10], ids[9]]);
      expect([...(await events.newestAfter(ids[10], 100))].map((r) => r.id)).toEqual([ids[11]]);
      const stored = (await events.readAfter(0, 100)).find((r) => r.id === recs[5].id);
      expect(stored).toEqual(recs[5]);
      off();
      expect(events.listenerCount()).toBe(0);
    });

    it('refuses an unknown kind and stores nothing; prune keeps the newest records', async () => {
      const { events } = (await factory.open({ now: () => NOW })).backend;
      for (let i = 0; i < 5; i++) await events.appendEvent(fly(i));
      // @ts-expect-error an unknown kind, as an untyped caller could send
      await expect(events.appendEvent({ kind: 'nope', payload: null, actor: 'anonymous' })).rejects.toMatchObject({ code: 'validation_failed' });
      const last = await events.lastId();
      expect(await events.prune(2)).toBe(3);
      expect((await events.readAfter(0, 100)).map((r) => r.id)).toEqual([last - 1, last]);
    });
  });
});
