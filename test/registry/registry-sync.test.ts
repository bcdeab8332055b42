// Replicas keep the registry in PostgreSQL and a mirror in their own LMDB store, which serving reads synchronously: an
// empty shared registry is seeded from the first replica's local one; a replica starting later mirrors the shared one
// (its champion table is what openModelRegistry(store).championTable() then serves); a promotion made by one replica
// reaches another's mirror.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openModelRegistry } from '../../src/registry/model-registry.js';
import { openPgRegistry } from '../../src/registry/registry-pg.js';
import { lmdbRegistry } from '../../src/registry/registry-store.js';
import { copyRegistry, syncRegistry } from '../../src/registry/registry-sync.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { CalibrationReport } from '../../src/valuation/calibration/job.js';
import { PG_AVAILABLE, startPgHarness, type PgHarness } from '../support/pg-backends.js';
import { FIXED_TABLE } from './fixed-table.js';

const PASS = { passed: true, checks: [] };
const table = (v: string) => ({ ...FIXED_TABLE, version: v });
const report = (v: string) => ({ version: v, snapshotId: 'snap-fixed', gates: PASS, promoted: true }) as unknown as CalibrationReport;

describe.skipIf(!PG_AVAILABLE)('registry mirror between PostgreSQL and each replica store', () => {
  let pg: PgHarness;
  const stores: Array<{ store: Store; dir: string }> = [];
  const newStore = (): Store => {
    const dir = mkdtempSync(join(tmpdir(), 'avm-regsync-'));
    const store = openStore(dir);
    stores.push({ store, dir });
    return store;
  };
  beforeAll(async () => {
    pg = await startPgHarness();
  }, 60_000);
  afterAll(async () => {
    for (const s of stores) {
      await s.store.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
    await pg?.stop();
  });

  it('seeds an empty shared registry, mirrors it into a later replica, and carries a later promotion over', async () => {
    const { pool } = await pg.database(2);
    const shared = openPgRegistry(pool);
    const a = newStore();
    const b = newStore();
    expect(await syncRegistry(shared, lmdbRegistry(b))).toEqual({ direction: 'none', versions: 0 });
    await lmdbRegistry(a).submit(table('cal-local'), PASS);
    await lmdbRegistry(a).putReport(report('cal-local'));
    expect(await syncRegistry(shared, lmdbRegistry(a))).toEqual({ direction: 'seeded_shared', versions: 1 });
    expect((await shared.document()).champion?.calibrationVersion).toBe('cal-local');
    expect(await shared.getReport('cal-local')).toEqual(report('cal-local'));

    expect(await syncRegistry(shared, lmdbRegistry(b))).toEqual({ direction: 'mirrored_local', versions: 1 });
    expect(openModelRegistry(b).championTable()).toEqual(table('cal-local'));

    // Replica A calibrates through the shared registry (as `avm calibrate` with AVM_DATABASE_URL) and mirrors it.
    await shared.submit(table('cal-new'), PASS);
    await copyRegistry(shared, lmdbRegistry(a));
    expect(openModelRegistry(a).championTable()?.version).toBe('cal-new');
    expect(openModelRegistry(b).championTable()?.version).toBe('cal-local'); // B sees it at its next sync
    await syncRegistry(shared, lmdbRegistry(b));
    expect(openModelRegistry(b).document()).toEqual(await shared.document());
    expect(openModelRegistry(b).document().rollback?.calibrationVersion).toBe('cal-local');
  });
});
