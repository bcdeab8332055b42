// `avm alerts dead-letters` and `avm alerts replay ID` with AVM_DATABASE_URL: they list and replay the shared outbox
// (the profile, with its webhook, read from the shared state), not the local LMDB one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeadLetters, replayDeadLetter } from '../../src/alerts/cli.js';
import { newOutboxRecord } from '../../src/alerts/outbox.js';
import { openPgOutbox } from '../../src/alerts/outbox-pg.js';
import { createProfile } from '../../src/alerts/profile.js';
import { loadConfig } from '../../src/config.js';
import { openStateBackend } from '../../src/store/backend.js';
import { openEnv } from '../../src/store/env.js';
import { sharedOutboxOpener } from '../../src/store/ops-backend.js';
import { PG_AVAILABLE, startPgHarness, type PgHarness } from '../support/pg-backends.js';
import { profileBody, startReceiver } from './support.js';

describe.skipIf(!PG_AVAILABLE)('alerts CLI on the shared outbox', () => {
  let pg: PgHarness;
  beforeAll(async () => {
    pg = await startPgHarness();
  }, 60_000);
  afterAll(() => pg?.stop());

  it('lists the shared dead letters and replays one to delivery', async () => {
    const db = await pg.database(2);
    const dir = mkdtempSync(join(tmpdir(), 'avm-cli-pg-'));
    const rx = await startReceiver(() => ({ kind: 'status', status: 200 }));
    try {
      const env = openEnv(dir);
      const backend = await openStateBackend({ databaseUrl: db.url }, env);
      const profile = await createProfile(backend.alerts, profileBody(rx.url), { ownerId: 'k1', allowPrivate: true });
      await backend.close();
      await env.close();
      const outbox = openPgOutbox(db.pool);
      const rec = newOutboxRecord({ idempotencyKey: 'cli-dead', profileId: profile.ref, channel: 'webhook', body: '{"x":1}', now: new Date() });
      await outbox.enqueue([rec]);
      const claim = { owner: 'gave-up', leaseMs: 60_000 };
      await outbox.claim(rec.id, claim, new Date());
      await outbox.deadLetter(rec.id, claim, 'http_500', new Date());

      const open = sharedOutboxOpener({ databaseUrl: db.url });
      expect(open).toBeDefined();
      expect(await listDeadLetters(dir)).toEqual([]); // the local LMDB outbox has none
      expect((await listDeadLetters(dir, open)).map((r) => [r.id, r.dead_letter])).toEqual([[rec.id, 'http_500']]);
      const config = loadConfig({ ...process.env, AVM_DATA_DIR: dir, AVM_DATABASE_URL: db.url, AVM_ALLOW_PRIVATE_WEBHOOKS: 'true' });
      expect(await replayDeadLetter(dir, rec.id, { config }, open)).toEqual({ id: rec.id, state: 'delivered', diagnostic: null });
      expect(rx.received).toHaveLength(1);
      expect((await outbox.get(rec.id))?.replays).toBe(1);
    } finally {
      await rx.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
