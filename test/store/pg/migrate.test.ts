import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import { listMigrations, migrate, MIGRATIONS_DIR } from '../../../src/store/pg/migrate.js';
import { openPgPool } from '../../../src/store/pg/pool.js';
import { PG_AVAILABLE } from '../../support/pg-backends.js';

// CI installs PostgreSQL (.ci/run); elsewhere the suite says it skipped rather than pretending.
describe.skipIf(!PG_AVAILABLE)('PostgreSQL migrations', () => {
  let cluster: LocalCluster;
  beforeAll(async () => {
    cluster = await startLocalCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('applies every file once, in name order, even when three replicas start together', async () => {
    const url = cluster.createDatabase('mig_once');
    const pools = [0, 1, 2].map(() => openPgPool(url, { max: 2 }));
    const runs = await Promise.all(pools.map((p) => migrate(p)));
    const names = listMigrations().map((m) => m.name);
    expect(runs.flat().sort()).toEqual(names);
    expect(await migrate(pools[0])).toEqual([]);
    const rows = (await pools[0].query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows.map((r) => r.name);
    expect(rows).toEqual(names);
    await Promise.all(pools.map((p) => p.end()));
  });

  it('refuses to start when an applied migration was edited, and rolls back a failing one', async () => {
    const url = cluster.createDatabase('mig_edit');
    const dir = mkdtempSync(join(tmpdir(), 'avm-mig-'));
    const first = listMigrations()[0];
    copyFileSync(join(MIGRATIONS_DIR, first.name), join(dir, first.name));
    const pool = openPgPool(url, { max: 1 });
    expect(await migrate(pool, dir)).toEqual([first.name]);
    writeFileSync(join(dir, first.name), `${first.sql}\n-- edited\n`);
    await expect(migrate(pool, dir)).rejects.toThrow(/edited after it was applied/);
    writeFileSync(join(dir, first.name), first.sql);
    writeFileSync(join(dir, '9999_broken.sql'), 'CREATE TABLE half_done (x int); SELECT no_such_function();');
    await expect(migrate(pool, dir)).rejects.toThrow(/9999_broken.sql failed/);
    const half = await pool.query("SELECT to_regclass('half_done') AS t");
    expect(half.rows[0].t).toBeNull();
    await pool.end();
  });
});
