// `avm keys create|rotate|revoke|list`: each command opens the key store (the LMDB env under dataDir, or PostgreSQL
// when AVM_DATABASE_URL is set: the replicas' shared keys), acts, prints, closes.
// The plaintext key is printed exactly once, at creation or rotation; nothing else ever shows it again.
import { openEnv } from '../store/env.js';
import { migrate } from '../store/pg/migrate.js';
import { openPgKeyStore } from '../store/pg/keys.js';
import { openPgPool } from '../store/pg/pool.js';
import { openKeyStore, type ApiKey, type KeyStore } from './keys.js';

export type CliOut = (line: string) => void;
const stdout: CliOut = (line) => process.stdout.write(`${line}\n`);

/** Where the keys live: `databaseUrl` (config.databaseUrl) wins over the LMDB env under `dataDir`. */
type KeysAt = { dataDir: string; databaseUrl?: string | null };

async function withKeys<T>(at: KeysAt, fn: (keys: KeyStore) => Promise<T> | T): Promise<T> {
  if (at.databaseUrl) {
    const pool = openPgPool(at.databaseUrl, { max: 2, applicationName: 'avm-keys' });
    try {
      await migrate(pool);
      return await fn(openPgKeyStore(pool));
    } finally {
      await pool.end();
    }
  }
  const env = openEnv(at.dataDir);
  try {
    return await fn(openKeyStore(env));
  } finally {
    await env.close();
  }
}

function describe(k: ApiKey): string {
  const state = k.revoked_at ? `revoked ${k.revoked_at}` : 'active';
  return `${k.id}  scopes=${k.scopes.join(',')}  rpm=${k.rpm_limit}  ${state}  created ${k.created_at}${k.label ? `  label=${JSON.stringify(k.label)}` : ''}${k.rotated_from ? `  rotated_from=${k.rotated_from}` : ''}`;
}

/** `--scopes read,underwrite` (or an array); `rpm` defaults to the registry's key_default_rpm. */
export async function createKeyCommand(o: KeysAt & { scopes: string | string[]; rpm?: number; label?: string; out?: CliOut }): Promise<ApiKey> {
  const out = o.out ?? stdout;
  const issued = await withKeys(o, (keys) => keys.createKey({ scopes: o.scopes, rpmLimit: o.rpm, label: o.label }));
  out(`created ${describe(issued.key)}`);
  out(`API key (shown once, store it now): ${issued.plaintext}`);
  return issued.key;
}

export async function rotateKeyCommand(o: KeysAt & { id: string; out?: CliOut }): Promise<ApiKey> {
  const out = o.out ?? stdout;
  const issued = await withKeys(o, (keys) => keys.rotateKey(o.id));
  out(`rotated ${o.id} -> ${describe(issued.key)}`);
  out(`API key (shown once, store it now): ${issued.plaintext}`);
  return issued.key;
}

export async function revokeKeyCommand(o: KeysAt & { id: string; out?: CliOut }): Promise<ApiKey> {
  const out = o.out ?? stdout;
  const key = await withKeys(o, (keys) => keys.revokeKey(o.id));
  out(`revoked ${describe(key)}`);
  return key;
}

export async function listKeysCommand(o: KeysAt & { out?: CliOut }): Promise<ApiKey[]> {
  const out = o.out ?? stdout;
  const list = await withKeys(o, (keys) => keys.listKeys());
  if (list.length === 0) out('no API keys');
  for (const k of list) out(describe(k));
  return list;
}
