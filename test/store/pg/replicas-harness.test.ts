// The replica harness itself (test/support/replicas.ts): two real service processes on one database, each answering
// on its own discovered port; a SIGKILLed replica stops answering and restart(i) brings it back on the same port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import { startReplicas, type ReplicaSet } from '../../support/replicas.js';
import { PG_AVAILABLE } from '../../support/pg-backends.js';

describe.skipIf(!PG_AVAILABLE)('replica harness', () => {
  let cluster: LocalCluster;
  let set: ReplicaSet;
  beforeAll(async () => {
    cluster = await startLocalCluster();
    set = await startReplicas(2, { databaseUrl: cluster.createDatabase('harness') });
  }, 180_000);
  afterAll(async () => {
    await set?.stopAll();
    cluster?.stop();
  });

  it('starts each replica on its own port and answers health', async () => {
    expect(new Set(set.replicas.map((r) => r.port)).size).toBe(2);
    for (const r of set.replicas) expect((await fetch(`${r.url}/api/health`)).status).toBe(200);
  });

  it('kill9 stops a replica; restart brings it back on the same port', async () => {
    const before = set.replicas[1].port;
    await set.kill9(1);
    await expect(fetch(`${set.url(1)}/api/health`)).rejects.toThrow();
    const back = await set.restart(1);
    expect(back.port).toBe(before);
    expect((await fetch(`${back.url}/api/health`)).status).toBe(200);
  }, 90_000);
});
