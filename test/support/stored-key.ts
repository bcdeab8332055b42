// An API key as it lies at rest in the backend a service keeps its keys in (the LMDB sub-db's value, or the api_keys
// row on PostgreSQL): for tests that check what is stored (the hash, never the secret) on either test lane.
import { DB_NAMES, openSubDb } from '../../src/store/env.js';
import type { ServiceHandle } from '../../src/server.js';

export async function storedKeyRecord(service: ServiceHandle, id: string): Promise<Record<string, unknown> | undefined> {
  const pool = service.svc.backend?.pool;
  if (pool) return (await pool.query('SELECT * FROM api_keys WHERE id = $1', [id])).rows[0];
  return openSubDb<Record<string, unknown>>(service.svc.store.env, DB_NAMES.keys).get(id);
}
