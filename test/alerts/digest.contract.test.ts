// One digest rule, two homes for its state: the LMDB outbox sub-database (one process) and the PostgreSQL tables
// replicas share (whichever replica runs a day's listings run dedupes against every earlier day). Same outcomes over
// several simulated days; on PostgreSQL two runs at once push a profile once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runDigest, type DigestResult, type DigestRun } from '../../src/alerts/digest.js';
import { runDigestPg } from '../../src/alerts/digest-pg.js';
import { openPgOutbox } from '../../src/alerts/outbox-pg.js';
import { lmdbOutbox, type AlertOutbox } from '../../src/alerts/outbox-store.js';
import { createProfile } from '../../src/alerts/profile.js';
import type { AlertStore } from '../../src/alerts/store.js';
import { BACKENDS, extraPool, startPgHarness, type PgHarness } from '../support/pg-backends.js';
import { MODEL, profileBody, row, tempStore, type TempStore } from './support.js';

const day = (d: number): Date => new Date(Date.UTC(2026, 10, 19 + d, 13, 5, 0)); // day 1 = 2026-11-20
const run = (d: number, rows: ReturnType<typeof row>[]): DigestRun => ({ rows, asOf: day(d), modelVersions: MODEL, now: day(d) });

let pg: PgHarness;
let temps: TempStore[] = [];
beforeAll(async () => {
  pg = await startPgHarness();
}, 60_000);
afterAll(() => pg?.stop());
afterEach(async () => {
  await Promise.all(temps.map((t) => t.close()));
  temps = [];
});

type Home = { store: AlertStore; digest: (r: DigestRun) => Promise<DigestResult>; other: (r: DigestRun) => Promise<DigestResult>; outbox: AlertOutbox };

async function open(backend: 'lmdb' | 'postgresql'): Promise<Home> {
  const t = tempStore();
  temps.push(t);
  await createProfile(t.store, profileBody('http://127.0.0.1:1/hook'), { ownerId: 'k1', allowPrivate: true });
  if (backend === 'lmdb') return { store: t.store, digest: (r) => runDigest(t.store, r), other: (r) => runDigest(t.store, r), outbox: lmdbOutbox(t.store) };
  const db = await pg.database(2);
  const second = extraPool(db, db.url, 2);
  return { store: t.store, digest: (r) => runDigestPg(db.pool, t.store, r), other: (r) => runDigestPg(second, t.store, r), outbox: openPgOutbox(db.pool) };
}

describe.each(BACKENDS)('digest contract (%s)', (backend) => {
  it('one push a day, dedupe across days, a real price move alerts again', async () => {
    const h = await open(backend);
    const l1 = row({ listing_id: 'L1', price: 200_000 });
    const l2 = row({ listing_id: 'L2', price: 250_000 });
    const d1 = await h.digest(run(1, [l1, l2]));
    expect(d1.profiles).toEqual([expect.objectContaining({ status: 'queued', match_count: 2, held_back: 0 })]);
    expect(await h.outbox.list()).toHaveLength(1);
    expect((await h.other(run(1, [l1, l2]))).profiles[0].status).toBe('already_pushed_today');
    expect((await h.digest(run(2, [l1, l2]))).profiles[0].status).toBe('no_new_matches');
    const d3 = await h.digest(run(3, [row({ listing_id: 'L1', price: 190_000 }), l2]));
    expect(d3.profiles).toEqual([expect.objectContaining({ status: 'queued', match_count: 1 })]);
    const queued = await h.outbox.list();
    expect(queued).toHaveLength(2);
    expect(JSON.parse(queued[1].body).matches.map((m: { listing_id: string }) => m.listing_id)).toEqual(['L1']);
  });

  it('two runs of one day at once push each profile once', async () => {
    const h = await open(backend);
    const rows = [row({ listing_id: 'L9', price: 210_000 })];
    const [a, b] = await Promise.all([h.digest(run(4, rows)), h.other(run(4, rows))]);
    expect([a.profiles[0].status, b.profiles[0].status].sort()).toEqual(['already_pushed_today', 'queued']);
    expect(await h.outbox.list()).toHaveLength(1);
  });
});
