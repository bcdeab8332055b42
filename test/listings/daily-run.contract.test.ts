// One contract, two daily-run locks: LMDB (one process, the day in the meta sub-database) and PostgreSQL (advisory
// lock + listings_daily_runs) shared by three replicas. However many callers fire for a day, one runs it; a finished
// day never runs again; a failed run counts as the day's run; the next day runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lmdbDailyRunLock, type DailyRunLock } from '../../src/listings/daily-run.js';
import { pgDailyRunLock } from '../../src/listings/daily-run-pg.js';
import { openEnv } from '../../src/store/env.js';
import { BACKENDS, extraPool, startPgHarness, type PgHarness } from '../support/pg-backends.js';

let pg: PgHarness;
const envs: Array<{ env: RootDatabase; dir: string }> = [];
beforeAll(async () => {
  pg = await startPgHarness();
}, 60_000);
afterAll(() => pg?.stop());
afterEach(async () => {
  for (const e of envs.splice(0)) {
    await e.env.close();
    rmSync(e.dir, { recursive: true, force: true });
  }
});

async function locks(backend: 'lmdb' | 'postgresql'): Promise<DailyRunLock[]> {
  if (backend === 'lmdb') {
    const dir = mkdtempSync(join(tmpdir(), 'avm-daily-'));
    const env = openEnv(dir);
    envs.push({ env, dir });
    return [lmdbDailyRunLock(env), lmdbDailyRunLock(env), lmdbDailyRunLock(env)];
  }
  const db = await pg.database(2);
  return [0, 1, 2].map((i) => pgDailyRunLock(i === 0 ? db.pool : extraPool(db, db.url, 2), `replica-${i}`));
}

describe.each(BACKENDS)('daily run lock contract (%s)', (backend) => {
  it('three callers fire at once: one runs the day, the others skip; later the same day nobody runs it', async () => {
    const ls = await locks(backend);
    let runs = 0;
    const job = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 100));
      return 'done';
    };
    const outs = await Promise.all(ls.map((l) => l.runOnce('2026-11-20', job)));
    expect(runs).toBe(1);
    expect(outs.filter((o) => o.ran)).toEqual([{ ran: true, result: 'done' }]);
    expect(outs.filter((o) => !o.ran)).toHaveLength(2); // running_elsewhere, or already_ran when one came after the run
    expect(await ls[2].runOnce('2026-11-20', job)).toEqual({ ran: false, reason: 'already_ran' });
    expect(await ls[1].runOnce('2026-11-21', job)).toEqual({ ran: true, result: 'done' });
    expect(runs).toBe(2);
  });

  it('a failed run is rethrown and counts as the day run', async () => {
    const [a, b] = await locks(backend);
    await expect(a.runOnce('2026-11-22', async () => Promise.reject(new Error('feed down')))).rejects.toThrow('feed down');
    expect(await b.runOnce('2026-11-22', async () => 1)).toEqual({ ran: false, reason: 'already_ran' });
  });
});

describe.skipIf(!BACKENDS.includes('postgresql'))('daily run lock on PostgreSQL: the holder dies', () => {
  it("a replica's death mid-run frees the lock, and the unfinished day runs on the next call", async () => {
    const db = await pg.database(2);
    const holder = pgDailyRunLock(db.pool, 'dies');
    const other = pgDailyRunLock(extraPool(db, db.url, 2), 'survivor');
    let started!: () => void;
    let hangUp!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const dying = holder.runOnce('2026-11-23', async () => {
      started();
      await new Promise<void>((r) => (hangUp = r)); // still running when its connection is cut
    });
    await running;
    expect(await other.runOnce('2026-11-23', async () => 'too early')).toEqual({ ran: false, reason: 'running_elsewhere' });
    // The holder's connection is cut, as when its process is killed: PostgreSQL drops its session lock.
    const cut = await db.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = 727200001 AND granted`);
    expect(cut.rowCount).toBe(1);
    let out;
    for (let i = 0; i < 50 && (out = await other.runOnce('2026-11-23', async () => 'made up')).ran === false; i++) await new Promise((r) => setTimeout(r, 100));
    expect(out).toEqual({ ran: true, result: 'made up' });
    const row = (await db.pool.query('SELECT owner, outcome FROM listings_daily_runs WHERE day = $1', ['2026-11-23'])).rows[0];
    expect(row).toEqual({ owner: 'survivor', outcome: 'ok' });
    hangUp(); // the cut holder cannot record anything: its runOnce rejects, nothing crashes
    await expect(dying).rejects.toThrow();
    expect((await db.pool.query('SELECT owner FROM listings_daily_runs WHERE day = $1', ['2026-11-23'])).rows[0].owner).toBe('survivor');
  });
});
