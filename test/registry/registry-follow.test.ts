// Replicas follow the shared model registry while they run (issue 18): two services on one PostgreSQL database, each
// over its own copy of the corpus; a champion promoted in the shared registry (as `avm calibrate` with
// AVM_DATABASE_URL does from any machine) is what both replicas' next valuations are calibrated under, and so is a
// rollback — before, a replica kept its start-time mirror until it restarted. And the LISTEN/poll follower beneath it
// catches a change whose notification was lost to a cut connection, and listens again.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPgRegistry } from '../../src/registry/registry-pg.js';
import { REGISTRY_CHANNEL } from '../../src/registry/registry-follower.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { followChannel } from '../../src/store/pg/channel-follower.js';
import type { PgPool } from '../../src/store/pg/pool.js';
import { roomyLimiter } from '../mcp/support.js';
import { testConfig } from '../support/corpus.js';
import { PG_AVAILABLE, startPgHarness, type PgHarness } from '../support/pg-backends.js';
import { parcelPoints, servedCorpusDir } from '../support/served-corpus.js';

type Json = Record<string, any>;

describe.skipIf(!PG_AVAILABLE)('replicas follow the shared model registry', () => {
  let pg: PgHarness;
  let url: string;
  let pool: PgPool;
  const replicas: ServiceHandle[] = [];
  let query: string;

  const arvOf = async (r: ServiceHandle): Promise<Json> => ((await (await fetch(`${r.url}/api/property?${query}`)).json()) as Json).investor.valuation.arv;
  const calibrationOf = async (r: ServiceHandle): Promise<string | null> => (await arvOf(r)).interval?.version ?? null;

  beforeAll(async () => {
    pg = await startPgHarness();
    ({ url, pool } = await pg.database());
    const served = await servedCorpusDir();
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), `avm-registry-replica-${i}-`));
      cpSync(served, dir, { recursive: true });
      replicas.push(await startService(testConfig(dir, { AVM_DATABASE_URL: url, AVM_WORKERS: '1' }), { installSignalHandlers: false, limiter: roomyLimiter() }));
    }
    // a subject valued by Tier 1 under the champion, so its interval names the calibration version
    for (const p of (await parcelPoints(served)).filter((_, i) => i % 97 === 0)) {
      query = `lat=${p.lat}&lon=${p.lon}&units=${p.units > 0 ? p.units : 1}`;
      const arv = await arvOf(replicas[0]);
      if (arv.method_tier === 1 && arv.interval?.version) break;
    }
  }, 300_000);

  afterAll(async () => {
    for (const r of replicas) await r.close();
    await pg?.stop();
  });

  it('a promotion and a rollback in the shared registry reach both running replicas', async () => {
    const shared = openPgRegistry(pool);
    const first = (await shared.document()).champion!.calibrationVersion;
    for (const r of replicas) expect(await calibrationOf(r)).toBe(first);
    // within 10 s, a third of the 30 s poll: the NOTIFY carried it

    const table = (await shared.getTable(first))!;
    await shared.submit({ ...table, version: 'cal-follow-2' }, { passed: true, checks: [] });
    for (const r of replicas) await vi.waitFor(async () => expect(await calibrationOf(r)).toBe('cal-follow-2'), { timeout: 10_000, interval: 50 });

    expect((await shared.rollback())!.calibrationVersion).toBe(first);
    for (const r of replicas) await vi.waitFor(async () => expect(await calibrationOf(r)).toBe(first), { timeout: 10_000, interval: 50 });
  });

  it('a change whose NOTIFY was lost (LISTEN connection killed) is caught by the poll, which listens again', async () => {
    let checks = 0;
    const follower = await followChannel({ pool, channel: 'avm_follow_test', pollMs: 200, check: async () => ++checks });
    try {
      expect(follower.listening()).toBe(true);
      const killed = await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN avm_follow_test'");
      expect(killed.rowCount).toBe(1);
      await vi.waitFor(() => expect(follower.listening()).toBe(false), { timeout: 5_000, interval: 20 });
      const before = checks;
      await vi.waitFor(() => expect(checks).toBeGreaterThan(before), { timeout: 5_000, interval: 20 }); // the poll ran the check
      await vi.waitFor(() => expect(follower.listening()).toBe(true), { timeout: 5_000, interval: 20 }); // and listens again
    } finally {
      await follower.stop();
    }
  });

  it('a registry write is announced on the channel the followers listen on (the trigger of migration 0205)', async () => {
    const c = await pool.connect();
    try {
      const heard = new Promise<string>((resolve) => c.on('notification', (n) => resolve(n.channel)));
      await c.query(`LISTEN ${REGISTRY_CHANNEL}`);
      const shared = openPgRegistry(pool);
      await shared.putDocument(await shared.document()); // a mirror write of the same document still touches the row
      expect(await heard).toBe(REGISTRY_CHANNEL);
    } finally {
      await c.query(`UNLISTEN ${REGISTRY_CHANNEL}`);
      c.release();
    }
  });
});
