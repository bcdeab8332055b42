// A value every replica must share, made once (secrets, signing keys): read from backend_meta; only when absent made
// by `make` and inserted (ON CONFLICT DO NOTHING: when two replicas race, the first insert wins) and read again. Reading
// first keeps an expensive `make` (an RSA key pair) off every start after the first.
import type { PgPool } from './pool.js';

export async function sharedMeta<T>(pool: PgPool, key: string, make: () => T): Promise<T> {
  const read = async (): Promise<T | undefined> => (await pool.query<{ value: T }>('SELECT value FROM backend_meta WHERE key = $1', [key])).rows[0]?.value;
  const have = await read();
  if (have !== undefined) return have;
  await pool.query('INSERT INTO backend_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, JSON.stringify(make())]);
  return (await read()) as T;
}
