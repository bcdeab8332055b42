import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { getEventLog } from '../../src/events/log.js';
import { tempEnv, type TempEnv } from '../http/middleware/support.js';

let t: TempEnv;
beforeEach(() => {
  t = tempEnv();
});
afterEach(async () => t.dispose());

describe('appendEvent({ kind, payload, actor })', () => {
  it('assigns increasing ids and notifies subscribers in id order after the write is durable', async () => {
    const log = getEventLog(t.env, { now: () => Date.UTC(2026, 10, 21) });
    const seen: number[] = [];
    log.subscribe((r) => seen.push(r.id));
    const recs = await Promise.all([
      log.appendEvent({ kind: 'fly_to', payload: { lat: 41.88, lon: -87.63, zoom: 12 }, actor: 'key:abc' }),
      log.appendEvent({ kind: 'highlight', payload: { ids: ['p1'] }, actor: 'key:abc' }),
      log.appendEvent({ kind: 'map_filters_updated', payload: { strategy: 'flip' }, actor: 'anonymous' }),
    ]);
    expect(recs.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(recs[0]).toEqual({ id: 1, kind: 'fly_to', at: '2026-11-21T00:00:00.000Z', actor: 'key:abc', payload: { lat: 41.88, lon: -87.63, zoom: 12 } });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('refuses an unknown kind with validation_failed', async () => {
    const log = getEventLog(t.env);
    await expect(log.appendEvent({ kind: 'nope' as never, payload: {}, actor: 'x' })).rejects.toMatchObject({ code: 'validation_failed' });
    expect(log.lastId()).toBe(0);
  });

  it('survives closing and reopening the environment, and continues the sequence', async () => {
    const log = getEventLog(t.env);
    for (const kind of ['fly_to', 'highlight', 'note_added'] as const) await log.appendEvent({ kind, payload: { kind }, actor: 'a' });
    const reopened = getEventLog(await t.reopen());
    expect(reopened.readAfter(0, 1000).map((r) => [r.id, r.kind])).toEqual([[1, 'fly_to'], [2, 'highlight'], [3, 'note_added']]);
    expect((await reopened.appendEvent({ kind: 'fly_to', payload: {}, actor: 'a' })).id).toBe(4);
  });
});

describe('appendWith(write)', () => {
  it('commits the write and its stream record together; a write that throws leaves neither and takes no id', async () => {
    const log = getEventLog(t.env);
    const state = t.env.openDB({ name: 'scratch' });
    const ok = await log.appendWith(() => {
      state.put('a', 1);
      return { event: { kind: 'note_added', payload: { a: 1 }, actor: 'key:x', owner: 'key:x' }, value: 'done' };
    });
    expect([ok.rec.id, ok.rec.owner, ok.value, state.get('a')]).toEqual([1, 'key:x', 'done', 1]);
    const refused = log.appendWith(() => {
      state.put('b', 2);
      throw new AppError('validation_failed', 'over the cap');
    });
    await expect(refused).rejects.toMatchObject({ code: 'validation_failed' });
    expect([state.get('b'), log.lastId(), log.readAfter(0, 10).length]).toEqual([undefined, 1, 1]);
    expect((await log.appendEvent({ kind: 'fly_to', payload: {}, actor: 'a' })).id).toBe(2);
  });
});

describe('readAfter(afterId, max)', () => {
  it('returns only newer records, and only the newest `max` of them', async () => {
    const log = getEventLog(t.env);
    for (let i = 0; i < 5; i++) await log.appendEvent({ kind: 'highlight', payload: { i }, actor: 'a' });
    expect(log.readAfter(3, 1000).map((r) => r.id)).toEqual([4, 5]);
    expect(log.readAfter(0, 2).map((r) => r.id)).toEqual([4, 5]);
    expect(log.readAfter(5, 1000)).toEqual([]);
  });
});

describe('prune(keepLast)', () => {
  it('deletes records outside the replay window and keeps the sequence', async () => {
    const log = getEventLog(t.env);
    for (let i = 0; i < 5; i++) await log.appendEvent({ kind: 'highlight', payload: { i }, actor: 'a' });
    expect(await log.prune(2)).toBe(3); // ids 1..3 go, 4..5 stay
    expect(log.readAfter(0, 1000).map((r) => r.id)).toEqual([4, 5]);
    expect((await log.appendEvent({ kind: 'highlight', payload: {}, actor: 'a' })).id).toBe(6);
  });
});
