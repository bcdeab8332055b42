import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestAll } from '../../src/ingest/ingest.js';
import { INGEST } from '../../src/registry/groups/ingest.js';
import { openStore } from '../../src/store/store.js';
import { writeFixture, type Fixture } from '../ingest/loaders/fixture-corpus.js';

const fixtures: Fixture[] = [];
afterEach(() => fixtures.splice(0).forEach((f) => f.cleanup()));
const fixture = (): Fixture => { const f = writeFixture(); fixtures.push(f); return f; };

/** Appends one more valid sale so the next ingest yields different snapshot bytes. */
function addSale(fx: Fixture, k: number): void {
  const path = join(fx.rawDir, 'ccao_parcel_sales.csv');
  writeFileSync(path, `${readFileSync(path, 'utf8')}17011010060000,2022,76,100,203,2022-02-0${k},${100000 + k},X${k},Warranty,1\n`);
}

describe('sales snapshots', () => {
  it('same raw files give the same snapshot bytes, whatever the ingest time or data dir', async () => {
    const a = fixture();
    const b = fixture();
    const ra = await ingestAll({ dataDir: a.dataDir, now: new Date('2026-01-01T00:00:00Z') });
    const rb = await ingestAll({ dataDir: b.dataDir, now: new Date('2026-06-01T12:34:56Z') });
    expect(ra.snapshotId).toBe(rb.snapshotId);
    const [sa, sb] = [openStore(a.dataDir), openStore(b.dataDir)];
    try {
      expect(Buffer.from(sa.readSalesSnapshotBytes().bytes).equals(Buffer.from(sb.readSalesSnapshotBytes().bytes))).toBe(true);
      expect(sa.getMeta<{ at: string }>('ingest:last')!.at).not.toBe(sb.getMeta<{ at: string }>('ingest:last')!.at);
    } finally {
      await Promise.all([sa.close(), sb.close()]);
    }
  });

  it('re-ingesting unchanged files keeps the current snapshot (no new version)', async () => {
    const fx = fixture();
    const first = await ingestAll({ dataDir: fx.dataDir });
    const again = await ingestAll({ dataDir: fx.dataDir });
    expect(again).toMatchObject({ snapshotId: first.snapshotId, unchanged: true });
  });

  it('switches the pointer atomically; a reader holding the old id still reads the old snapshot', async () => {
    const fx = fixture();
    const first = await ingestAll({ dataDir: fx.dataDir });
    const store = openStore(fx.dataDir);
    try {
      const held = store.readSalesSnapshot();
      expect(held.id).toBe(first.snapshotId);
      addSale(fx, 1);
      const second = await ingestAll({ dataDir: fx.dataDir });
      expect(second.snapshotId).toMatch(/^s-000002-/);
      expect(store.currentSnapshotId()).toBe(second.snapshotId);
      expect(store.readSalesSnapshot().table.numRows).toBe(held.table.numRows + 1);
      expect(store.readSalesSnapshot(first.snapshotId).table.numRows).toBe(held.table.numRows);
      expect(held.table.numRows).toBe(7);
    } finally {
      await store.close();
    }
  });

  it(`keeps the last ${INGEST.v.snapshots_retained} snapshots and retires older ones`, async () => {
    const fx = fixture();
    const ids: string[] = [(await ingestAll({ dataDir: fx.dataDir })).snapshotId];
    for (let k = 1; k <= INGEST.v.snapshots_retained; k++) {
      addSale(fx, k);
      ids.push((await ingestAll({ dataDir: fx.dataDir })).snapshotId);
    }
    const store = openStore(fx.dataDir);
    try {
      expect(store.listSnapshots().map((s) => s.id)).toEqual(ids.slice(-INGEST.v.snapshots_retained));
      expect(() => store.readSalesSnapshot(ids[0])).toThrow(/not in the store/);
      expect(() => store.readParcels(ids[0])).toThrow(/not in the store/);
      expect(store.readParcels(ids[1]).id).toBe(ids[1]);
    } finally {
      await store.close();
    }
  });

  it('reads fail with corpus_unavailable before any ingest', async () => {
    const fx = fixture();
    const store = openStore(fx.dataDir);
    try {
      expect(store.currentSnapshotId()).toBeNull();
      expect(() => store.readSalesSnapshot()).toThrow(expect.objectContaining({ code: 'corpus_unavailable' }));
      expect(store.checkSnapshot().ok).toBe(false);
    } finally {
      await store.close();
    }
  });
});
