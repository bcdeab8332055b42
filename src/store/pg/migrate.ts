// Versioned schema migrations of the PostgreSQL backend: the files `db/migrations/NNNN_name.sql`, applied in name
// order at start, each once, each in its own transaction, recorded in `schema_migrations` with its sha256. Replicas
// starting together serialize on an advisory lock, so each file runs exactly once. An applied file whose text changed
// stops the start (a migration is never edited after it shipped: add a new one).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '../../config.js';
import type { PgPool } from './pool.js';

export const MIGRATIONS_DIR = join(ROOT_DIR, 'db', 'migrations');
/** Advisory lock key of the migration run (any fixed 64-bit number unique to this purpose). */
const MIGRATION_LOCK = 727_100_001;

export type Migration = { name: string; sql: string; sha256: string };

/** The migration files in application order. */
export function listMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name), 'utf8');
      return { name, sql, sha256: createHash('sha256').update(sql).digest('hex') };
    });
}

/** Applies the pending migrations; returns the names applied by this call. */
export async function migrate(pool: PgPool, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = listMigrations(dir);
  const c = await pool.connect();
  try {
    await c.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Map((await c.query<{ name: string; sha256: string }>('SELECT name, sha256 FROM schema_migrations')).rows.map((r) => [r.name, r.sha256]));
    const applied: string[] = [];
    for (const m of files) {
      const had = done.get(m.name);
      if (had !== undefined) {
        if (had !== m.sha256) throw new Error(`migration ${m.name} was edited after it was applied (sha256 ${had.slice(0, 12)}… recorded, ${m.sha256.slice(0, 12)}… on disk): add a new migration instead`);
        continue;
      }
      await c.query('BEGIN');
      try {
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations (name, sha256) VALUES ($1, $2)', [m.name, m.sha256]);
        await c.query('COMMIT');
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${m.name} failed: ${(e as Error).message}`);
      }
      applied.push(m.name);
    }
    return applied;
  } finally {
    await c.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    c.release();
  }
}


