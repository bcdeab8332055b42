// A replica whose PostgreSQL stops answering (issue 18): callers get 503 shared_store_unavailable with Retry-After —
// not a 500, and not a 401 for a valid key whose check could not be made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import { startService, type ServiceHandle } from '../../../src/server.js';
import { cleanupCopies, copyOfSmallCorpus } from '../../support/corpus-copy.js';
import { testConfig } from '../../support/corpus.js';
import { PG_AVAILABLE } from '../../support/pg-backends.js';

describe.skipIf(!PG_AVAILABLE)('PostgreSQL down under a running replica', () => {
  let cluster: LocalCluster;
  let service: ServiceHandle;
  let key: string;
  beforeAll(async () => {
    cluster = await startLocalCluster();
    const url = cluster.createDatabase('down');
    service = await startService(testConfig(await copyOfSmallCorpus(), { AVM_DATABASE_URL: url }), { installSignalHandlers: false });
    key = (await service.svc.backend!.keys.createKey({ scopes: ['read', 'write-state'] })).plaintext;
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    cluster?.stop();
    cleanupCopies();
  });

  it('answers 503 shared_store_unavailable with Retry-After once the database is gone', async () => {
    const state = (): Promise<Response> => fetch(`${service.url}/api/state`, { headers: { authorization: `Bearer ${key}` } });
    expect(service.svc.backend!.kind).toBe('postgres');
    expect((await state()).status).toBe(200);
    cluster.stop();
    const res = await state();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('shared_store_unavailable');
    expect((await fetch(`${service.url}/api/health`)).status).not.toBe(500);
  }, 60_000);
});
