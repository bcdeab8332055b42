// Two replicas' event logs on one PostgreSQL database (src/store/pg/events.ts): a record appended on one reaches the
// other's subscribers by LISTEN/NOTIFY, and under concurrent appends on both every subscriber sees every record once,
// in increasing id order, the same sequence the table holds.
import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../../../src/events/kinds.js';
import { backendFactory, skipBackend } from '../contract/backends.js';

describe.skipIf(skipBackend('postgres'))('event stream across replicas (PostgreSQL)', () => {
  const factory = backendFactory('postgres');

  const waitFor = async (cond: () => boolean, limitMs = 10_000): Promise<void> => {
    const t0 = Date.now();
    while (!cond()) {
      if (Date.now() - t0 > limitMs) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it('fans a record written on A out to a subscriber of B, and interleaved bursts arrive whole and in order on both', async () => {
    const a = await factory.open();
    const b = await factory.openAgain(a.url!);
    const onA: EventRecord[] = [];
    const onB: EventRecord[] = [];
    a.backend.events.subscribe((r) => onA.push(r));
    b.backend.events.subscribe((r) => onB.push(r));
    const t0 = performance.now();
    const first = await a.backend.events.appendEvent({ kind: 'fly_to', payload: { from: 'A' }, actor: 'anonymous' });
    await waitFor(() => onB.length === 1);
    const crossMs = performance.now() - t0;
    expect(onB[0]).toEqual(first);
    const burst = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).backend.events.appendEvent({ kind: 'highlight', payload: { i }, actor: 'anonymous' })));
    await waitFor(() => onA.length === 101 && onB.length === 101);
    const table = (await a.backend.events.readAfter(0, 1_000)).map((r) => r.id);
    expect(onA.map((r) => r.id)).toEqual(table);
    expect(onB.map((r) => r.id)).toEqual(table);
    expect(new Set(burst.map((r) => r.id)).size).toBe(100);
    // Resume by Last-Event-ID reads the same table on either replica.
    expect(await b.backend.events.readAfter(table[50], 1_000)).toEqual(await a.backend.events.readAfter(table[50], 1_000));
    console.log(`cross-replica fan-out of one record: ${crossMs.toFixed(1)} ms`);
  });
});
