// One contract, two registries: the LMDB calibration sub-database and the PostgreSQL tables shared by replicas. A passing
// table becomes champion (the old one the rollback pointer), a failing one is recorded rejected, rollback swaps back,
// tables and reports come back equal (same artifact digest), and on PostgreSQL two replicas submitting at once both
// land in the history.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifactDigest } from '../../src/registry/model-registry.js';
import { openPgRegistry } from '../../src/registry/registry-pg.js';
import { lmdbRegistry, type RegistryStore } from '../../src/registry/registry-store.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { CalibrationReport } from '../../src/valuation/calibration/job.js';
import { BACKENDS, extraPool, startPgHarness, type PgHarness } from '../support/pg-backends.js';
import { FIXED_TABLE } from './fixed-table.js';

const PASS = { passed: true, checks: [{ gate: 'cod', value: 9.3, target: '<= 10', passed: true }] };
const FAIL = { passed: false, checks: [{ gate: 'cod', value: 16.2, target: '<= 10', passed: false }] };
const table = (v: string) => ({ ...FIXED_TABLE, version: v });

let pg: PgHarness;
const opened: Array<{ store: Store; dir: string }> = [];
beforeAll(async () => {
  pg = await startPgHarness();
}, 60_000);
afterAll(() => pg?.stop());
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.store.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
});

async function two(backend: 'lmdb' | 'postgresql'): Promise<[RegistryStore, RegistryStore]> {
  if (backend === 'lmdb') {
    const dir = mkdtempSync(join(tmpdir(), 'avm-reg-'));
    const store = openStore(dir);
    opened.push({ store, dir });
    return [lmdbRegistry(store), lmdbRegistry(store)];
  }
  const db = await pg.database(2);
  return [openPgRegistry(db.pool), openPgRegistry(extraPool(db, db.url, 2))];
}

describe.each(BACKENDS)('model registry contract (%s)', (backend) => {
  it('promotes a passing table, records a failing one, rolls back', async () => {
    const [a, b] = await two(backend);
    expect(await a.document()).toEqual({ champion: null, rollback: null, history: [] });
    const first = await a.submit(table('cal-1'), PASS);
    expect(first).toMatchObject({ status: 'champion', calibrationVersion: 'cal-1', digest: artifactDigest(table('cal-1'), 'avm-test-1', 'registry-test-1') });
    await b.submit(table('cal-2'), FAIL);
    let doc = await b.document();
    expect(doc.champion?.calibrationVersion).toBe('cal-1');
    expect(doc.history.map((e) => `${e.calibrationVersion}:${e.status}`)).toEqual(['cal-2:rejected', 'cal-1:champion']);
    await b.submit(table('cal-3'), PASS);
    doc = await a.document();
    expect(doc.champion?.calibrationVersion).toBe('cal-3');
    expect(doc.rollback).toMatchObject({ calibrationVersion: 'cal-1', status: 'retired' });
    expect((await a.rollback())?.calibrationVersion).toBe('cal-1');
    doc = await b.document();
    expect(doc.champion?.calibrationVersion).toBe('cal-1');
    expect(doc.rollback).toBeNull();
    expect(await b.rollback()).toBeNull();
  });

  it('returns tables and reports equal to what was stored', async () => {
    const [a, b] = await two(backend);
    await a.submit(table('cal-x'), PASS);
    const back = await b.getTable('cal-x');
    expect(back).toEqual(table('cal-x'));
    expect(artifactDigest(back!, 'avm-test-1', 'registry-test-1')).toBe(artifactDigest(table('cal-x'), 'avm-test-1', 'registry-test-1'));
    expect(await b.getTable('cal-none')).toBeNull();
    const report = { version: 'cal-x', snapshotId: 'snap-fixed', gates: PASS, promoted: true, elapsedMs: 12 } as unknown as CalibrationReport;
    await a.putReport(report);
    expect(await b.getReport('cal-x')).toEqual(report);
    expect(await b.getReport('cal-none')).toBeNull();
  });

  it('concurrent submissions from two replicas are both recorded', async () => {
    const [a, b] = await two(backend);
    await Promise.all([a.submit(table('cal-a'), PASS), b.submit(table('cal-b'), PASS)]);
    const doc = await a.document();
    expect(doc.history.map((e) => e.calibrationVersion).sort()).toEqual(['cal-a', 'cal-b']);
    expect(doc.rollback?.calibrationVersion).toBe(doc.history[1].calibrationVersion);
  });
});
