// The backends every store contract runs against (issue 18): the embedded LMDB environment and PostgreSQL (a throwaway
// cluster per test file, a fresh database per opened backend). PostgreSQL cases skip where the server is not installed
// (CI installs it, so there they always run).
import { afterAll, beforeAll } from 'vitest';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import { lmdbStateBackend, openPgStateBackend, type BackendOptions, type StateBackend } from '../../../src/store/backend.js';
import { tempEnv } from '../../http/middleware/support.js';
import { PG_AVAILABLE } from '../../support/pg-backends.js';

export type BackendKind = 'lmdb' | 'postgres';
export const BACKENDS: BackendKind[] = ['lmdb', 'postgres'];
export const skipBackend = (kind: BackendKind): boolean => kind === 'postgres' && !PG_AVAILABLE;

export type OpenedBackend = { backend: StateBackend; url: string | null; close(): Promise<void> };

/** Call inside a describe: opens the backends of `kind` for its tests, cleaned up after the describe. */
export function backendFactory(kind: BackendKind): { open(opts?: BackendOptions): Promise<OpenedBackend>; openAgain(url: string, opts?: BackendOptions): Promise<OpenedBackend> } {
  let cluster: LocalCluster | null = null;
  let n = 0;
  const opened: OpenedBackend[] = [];
  beforeAll(async () => {
    if (kind === 'postgres') cluster = await startLocalCluster();
  }, 60_000);
  afterAll(async () => {
    for (const o of opened.splice(0)) await o.close().catch(() => undefined);
    cluster?.stop();
  });
  const openOn = async (url: string | null, opts: BackendOptions): Promise<OpenedBackend> => {
    const t = tempEnv();
    const backend = url === null ? lmdbStateBackend(t.env, opts) : await openPgStateBackend(url, t.env, opts);
    let closed = false;
    const o: OpenedBackend = {
      backend,
      url,
      async close() {
        if (closed) return;
        closed = true;
        await backend.close();
        await t.dispose();
      },
    };
    opened.push(o);
    return o;
  };
  return {
    open: (opts = {}) => openOn(kind === 'postgres' ? cluster!.createDatabase(`contract_${n++}`) : null, opts),
    /** A second backend on the same database: another replica (PostgreSQL only). */
    openAgain: (url, opts = {}) => openOn(url, opts),
  };
}
