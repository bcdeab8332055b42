// Snapshots for replicas against a real PostgreSQL: a publisher writes its snapshot into the shared folder and moves
// the pointer; a replica (another store) follows on the NOTIFY, loads the files beside what it serves, verifies the
// sha256 and only then switches; a tampered file is refused and the old snapshot stays served until a good copy lands.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import { adoptSnapshot } from '../../../src/store/adopt-snapshot.js';
import { migrate } from '../../../src/store/pg/migrate.js';
import { openPgPool, type PgPool } from '../../../src/store/pg/pool.js';
import { startSnapshotFollower, type SnapshotFollower } from '../../../src/store/shared/follower.js';
import { listReplicas, readPointer, setPointer } from '../../../src/store/shared/pointer.js';
import { publishSnapshot } from '../../../src/store/shared/publish.js';
import { snapshotFolder, SNAPSHOT_FILES, type SnapshotManifest } from '../../../src/store/shared/snapshot-source.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { runCli } from '../../support/cli.js';
import { cleanupCopies, copyOfSmallCorpus } from '../../support/corpus-copy.js';
import { PG_AVAILABLE } from '../../support/pg-backends.js';

const until = async (what: string, ok: () => boolean, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A second snapshot in the publisher's store: the same Arrow bytes under a new id (as a re-ingest would add one). */
function addSnapshot(store: Store, seq: number): string {
  const cur = store.listSnapshots().find((s) => s.id === store.currentSnapshotId())!;
  const id = `s-${String(seq).padStart(6, '0')}-${cur.sales_sha256.slice(0, 12)}`;
  adoptSnapshot(store.env, { ...cur, id, seq }, { sales: store.readSalesSnapshotBytes().bytes, parcels: store.readParcelBytes().bytes });
  return id;
}

describe.skipIf(!PG_AVAILABLE)('snapshots for replicas (shared folder + pointer in PostgreSQL)', () => {
  let cluster: LocalCluster;
  let url: string;
  let pool: PgPool;
  let publisher: Store;
  let replica: Store;
  let follower: SnapshotFollower | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'avm-shared-snap-'));
  beforeAll(async () => {
    cluster = await startLocalCluster();
    url = cluster.createDatabase('snapshots');
    pool = openPgPool(url, { max: 4 });
    await migrate(pool);
    publisher = openStore(await copyOfSmallCorpus());
    replica = openStore(mkdtempSync(join(tmpdir(), 'avm-replica-'))); // an empty replica: it serves nothing yet
  }, 300_000);
  afterAll(async () => {
    await follower?.stop();
    await publisher?.close();
    await replica?.close();
    await pool?.end();
    cluster?.stop();
    cleanupCopies();
  });

  it('a replica loads the published snapshot on the NOTIFY, verifies it and switches; it reports what it serves', async () => {
    // a poll far beyond the test: only the NOTIFY can make it switch
    follower = await startSnapshotFollower({ pool, store: replica, source: snapshotFolder(dir), replicaId: 'replica-b', pollMs: 600_000 });
    expect(follower.status()).toMatchObject({ serving: null, pointer: null, listening: true, last_error: null });
    const m = await publishSnapshot({ pool, store: publisher, sink: snapshotFolder(dir) });
    expect(m.snapshot.id).toBe(publisher.currentSnapshotId());
    expect((await readPointer(pool))?.snapshotId).toBe(m.snapshot.id);
    await until('the switch', () => follower!.status().pointer === m.snapshot.id); // the status lands after the report
    expect(Buffer.from(replica.readSalesSnapshotBytes().bytes).equals(Buffer.from(publisher.readSalesSnapshotBytes().bytes))).toBe(true);
    expect(replica.verifySnapshot()?.ok).toBe(true);
    expect(replica.readParcels().table.numRows).toBe(publisher.readParcels().table.numRows);
    expect(await listReplicas(pool)).toEqual([expect.objectContaining({ replica_id: 'replica-b', snapshot_id: m.snapshot.id, detail: `serving ${m.snapshot.id}` })]);
  });

  it('the next snapshot is loaded beside the old one, which stays held', async () => {
    const first = replica.currentSnapshotId()!;
    const second = addSnapshot(publisher, 2);
    await publishSnapshot({ pool, store: publisher, sink: snapshotFolder(dir) });
    await until('the second switch', () => follower!.status().pointer === second);
    expect(follower!.status().serving).toBe(second);
    expect(replica.listSnapshots().map((s) => s.id)).toEqual([first, second]);
    expect(replica.readSalesSnapshot(first).id).toBe(first); // a reader holding the old id keeps reading it
  });

  it('a tampered file is refused: the old snapshot stays served, the failure is reported, a good copy is then adopted', async () => {
    const before = replica.currentSnapshotId()!;
    const third = addSnapshot(publisher, 3);
    const folder = snapshotFolder(dir);
    const manifest: SnapshotManifest = { format: 1, snapshot: publisher.listSnapshots().find((s) => s.id === third)!, bytes: { sales: 0, parcels: 0 }, published_at: new Date().toISOString() };
    const sales = publisher.readSalesSnapshotBytes().bytes;
    await folder.writeSnapshot(manifest, sales, publisher.readParcelBytes().bytes);
    const file = join(dir, third, SNAPSHOT_FILES.sales);
    const bad = Buffer.from(readFileSync(file));
    bad[bad.length >> 1] ^= 0xff;
    writeFileSync(file, bad);
    await setPointer(pool, manifest);
    await until('the refusal', () => follower!.status().pointer === third && follower!.status().last_error !== null);
    const st = follower!.status();
    expect(st.serving).toBe(before);
    expect(st.last_error).toMatch(/sales sha256 .* ≠ recorded/);
    expect(replica.currentSnapshotId()).toBe(before);
    expect(replica.listSnapshots().map((s) => s.id)).not.toContain(third);
    const rows = await listReplicas(pool);
    expect(rows[0].snapshot_id).toBe(before);
    expect(rows[0].detail).toMatch(new RegExp(`serving ${before}; not switched to ${third}: .*sha256`));
    writeFileSync(file, sales); // the operator republishes a good copy: the next check adopts it
    expect((await follower!.check()).serving).toBe(third);
    expect(replica.listSnapshots().map((s) => s.id)).toHaveLength(3);
  });

  it('avm ingest --publish (the compiled CLI) publishes what it ingested; a replica goes back to a snapshot it still holds', async () => {
    const dataDir = await copyOfSmallCorpus(); // re-ingesting the same files: the same snapshot id as the first one
    const first = replica.listSnapshots()[0].id;
    const run = await runCli(['ingest', '--publish', '--data-dir', dataDir], { AVM_DATABASE_URL: url, AVM_SNAPSHOT_DIR: dir }, 120_000);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`published snapshot ${first} to ${dir}`);
    expect((await readPointer(pool))?.snapshotId).toBe(first);
    await until('the switch back', () => follower!.status().pointer === first);
    expect(follower!.status().serving).toBe(first);
    expect(replica.listSnapshots().map((s) => s.id)).toContain(first);
  }, 180_000);

  it('refuses a snapshot id that is not a plain name (no path outside the folder)', async () => {
    await expect(snapshotFolder(dir).readManifest('../etc')).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
