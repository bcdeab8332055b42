// PostgreSQL operations per request of the shared state (issue 18 scale model): statements and throughput of a key
// check, an owned write with its stream record, and a state page, on a throwaway local cluster with fsync ON (a real
// commit). Run: node --import tsx bench/pg-state-ops.ts (needs PostgreSQL installed; not part of `npm run bench`).
import pg from 'pg';
import { startLocalCluster } from './pg-cluster.js';
import { openPgStateBackend } from '../src/store/backend.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEnv } from '../src/store/env.js';

// Every statement any client sends is counted (pool queries and transaction clients alike).
let count = 0;
const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const original = proto.query;
proto.query = function (this: unknown, ...args: unknown[]) {
  count++;
  return original.apply(this, args);
};
const cluster = await startLocalCluster({ fsync: 'on', synchronous_commit: 'on' });
const dir = mkdtempSync(join(tmpdir(), 'avm-pg-ops-'));
const env = openEnv(dir);
const b = await openPgStateBackend(cluster.createDatabase('m'), env);
const issued = await b.keys.createKey({ scopes: ['read', 'write-state'] });
const owner = `key:${issued.key.id}`;
const measure = async (name: string, n: number, conc: number, op: (i: number) => Promise<unknown>): Promise<void> => {
  await op(-1);
  count = 0;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next < n) await op(next++);
    }),
  );
  const ms = performance.now() - t0;
  console.log(`${name}: ${n} ops, concurrency ${conc}: ${(n / (ms / 1000)).toFixed(0)} ops/s, ${(ms / n * conc).toFixed(2)} ms/op mean latency, ${(count / n).toFixed(1)} statements/op`);
};
await measure('verifyBearer', 2000, 1, () => Promise.resolve(b.keys.verifyBearer(`Bearer ${issued.plaintext}`)));
await measure('verifyBearer', 4000, 8, () => Promise.resolve(b.keys.verifyBearer(`Bearer ${issued.plaintext}`)));
const note = (i: number) => b.owned.write({ kind: 'note', owner, id: `n${i}`, build: () => ({ id: `n${i}`, body: 'x' }), event: (rec) => ({ kind: 'note_added', payload: rec, actor: owner, owner }) });
await measure('owned write + stream record', 1000, 1, note);
await measure('owned write + stream record', 2000, 8, (i) => note(10_000 + i));
await measure('state page (20)', 2000, 1, () => Promise.resolve(b.owned.page(owner, { kinds: ['note'], limit: 20, beforeSeq: null })));
await b.close();
await env.close();
rmSync(dir, { recursive: true, force: true });
cluster.stop();
