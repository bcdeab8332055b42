// The shared-backend CLI pieces: what `avm publish-snapshot`, `avm score-all --distributed` and `avm worker` need
// (AVM_DATABASE_URL and AVM_SNAPSHOT_DIR, the schema migrated) and the publish command itself.
import { ConfigError, type Config } from '../../config.js';
import { migrate } from '../pg/migrate.js';
import { openPgPool, type PgPool } from '../pg/pool.js';
import { openStore } from '../store.js';
import { publishSnapshot } from './publish.js';
import { snapshotFolder, type SnapshotManifest } from './snapshot-source.js';

/** Throws a one-line ConfigError naming what `what` needs and is missing. */
export function assertShared(config: Pick<Config, 'databaseUrl' | 'snapshotDir'>, what: string): void {
  const missing = [config.databaseUrl ? null : 'AVM_DATABASE_URL', config.snapshotDir ? null : 'AVM_SNAPSHOT_DIR'].filter(Boolean);
  if (missing.length > 0) throw new ConfigError(`invalid environment: ${what} needs ${missing.join(' and ')} (PostgreSQL and the shared snapshot folder; README, Beyond one machine)`);
}

/** The pool (schema migrated) and the snapshot folder; a clear ConfigError when either setting is missing. */
export async function openShared(config: Config, what: string): Promise<{ pool: PgPool; url: string; snapshotDir: string }> {
  assertShared(config, what);
  const pool = openPgPool(config.databaseUrl!, { max: 4, applicationName: 'avm-cli' });
  await migrateReachable(pool);
  return { pool, url: config.databaseUrl!, snapshotDir: config.snapshotDir! };
}

/**
 * Applies the migrations; a database that cannot be reached is the operator's to fix, so it is one line naming the
 * setting and the cause (never the URL: it may hold a password), not a stack trace. The pool is ended on failure.
 */
export async function migrateReachable(pool: PgPool): Promise<void> {
  try {
    await pool.query('SELECT 1');
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw new ConfigError(`invalid environment: AVM_DATABASE_URL: cannot connect (${(e as Error).message || (e as NodeJS.ErrnoException).code})`);
  }
  await migrate(pool);
}

/** `avm publish-snapshot`: the current snapshot into the shared folder, then the pointer moved (replicas follow). */
export async function runPublishSnapshot(config: Config): Promise<SnapshotManifest> {
  const { pool, snapshotDir } = await openShared(config, 'publish-snapshot');
  const store = openStore(config.dataDir);
  try {
    return await publishSnapshot({ pool, store, sink: snapshotFolder(snapshotDir) });
  } finally {
    await store.close();
    await pool.end();
  }
}
