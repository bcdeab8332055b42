// A service replica with AVM_DATABASE_URL and AVM_SNAPSHOT_DIR: it starts following the shared pointer, switches when
// another machine publishes, its health answer names the snapshot it serves, and its worker pool values on the new one.
// Needs the compiled worker (`npm run build` first; `npm test` does it).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import type { Health } from '../../../src/contracts/health.js';
import { startService, type ServiceHandle } from '../../../src/server.js';
import { adoptSnapshot } from '../../../src/store/adopt-snapshot.js';
import { migrate } from '../../../src/store/pg/migrate.js';
import { openPgPool, type PgPool } from '../../../src/store/pg/pool.js';
import { listReplicas } from '../../../src/store/shared/pointer.js';
import { publishSnapshot } from '../../../src/store/shared/publish.js';
import { snapshotFolder } from '../../../src/store/shared/snapshot-source.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { cleanupCopies, copyOfSmallCorpus } from '../../support/corpus-copy.js';
import { testConfig } from '../../support/corpus.js';
import { PG_AVAILABLE } from '../../support/pg-backends.js';

describe.skipIf(!PG_AVAILABLE)('a service replica follows the shared snapshot', () => {
  let cluster: LocalCluster;
  let pool: PgPool;
  let publisher: Store;
  let service: ServiceHandle;
  const dir = mkdtempSync(join(tmpdir(), 'avm-replica-snap-'));
  beforeAll(async () => {
    cluster = await startLocalCluster();
    const url = cluster.createDatabase('replica');
    pool = openPgPool(url, { max: 2 });
    await migrate(pool);
    publisher = openStore(await copyOfSmallCorpus());
    service = await startService(testConfig(await copyOfSmallCorpus(), { AVM_WORKERS: '1', AVM_DATABASE_URL: url, AVM_SNAPSHOT_DIR: dir }), { installSignalHandlers: false });
  }, 300_000);
  afterAll(async () => {
    await service?.close();
    await publisher?.close();
    await pool?.end();
    cluster?.stop();
    cleanupCopies();
  });

  const health = async (): Promise<Health> => (await fetch(`${service.url}/api/health`)).json() as Promise<Health>;

  it('reports its own snapshot before any publication, then switches to the published one and values on it', async () => {
    const own = publisher.currentSnapshotId()!; // both copies hold the same ingest
    expect((await health()).shared_snapshot).toMatchObject({ serving: own, pointer: null, listening: true, last_error: null });
    // the publisher's next snapshot (the same bytes under a new id, as a re-ingest adds one), published
    const info = publisher.listSnapshots().find((s) => s.id === own)!;
    const next = `s-000002-${info.sales_sha256.slice(0, 12)}`;
    adoptSnapshot(publisher.env, { ...info, id: next, seq: 2 }, { sales: publisher.readSalesSnapshotBytes().bytes, parcels: publisher.readParcelBytes().bytes });
    await publishSnapshot({ pool, store: publisher, sink: snapshotFolder(dir) });
    const end = Date.now() + 20_000;
    while ((await health()).shared_snapshot?.pointer !== next && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const h = await health();
    expect(h.ok).toBe(true);
    expect(h.shared_snapshot).toMatchObject({ serving: next, pointer: next, last_error: null });
    expect(h.bindings.sales_snapshot.detail).toContain(next);
    expect((await listReplicas(pool)).map((r) => r.snapshot_id)).toEqual([next]);
    expect(h.shared_snapshot!.replicas).toEqual([expect.objectContaining({ replica_id: h.shared_snapshot!.replica_id, snapshot_id: next })]);
    const listing = publisher.getListings().find((l) => l.property_type === 'sfh')!;
    const q = new URLSearchParams({ lat: String(listing.lat), lon: String(listing.lon), price: String(listing.price_usd), units: '1' });
    expect((await fetch(`${service.url}/api/underwrite?${q}`)).status).toBe(200); // the pool re-stamps on the new id
  }, 120_000);
});
