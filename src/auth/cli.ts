// `avm keys create|rotate|revoke|list`: each command opens the LMDB env under dataDir, acts, prints, closes.
// The plaintext key is printed exactly once, at creation or rotation; nothing else ever shows it again.
import { openEnv } from '../store/env.js';
import { openKeyStore, type ApiKey, type KeyStore } from './keys.js';

export type CliOut = (line: string) => void;
const stdout: CliOut = (line) => process.stdout.write(`${line}\n`);

async function withKeys<T>(dataDir: string, fn: (keys: KeyStore) => Promise<T> | T): Promise<T> {
  const env = openEnv(dataDir);
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
export async function createKeyCommand(o: { dataDir: string; scopes: string | string[]; rpm?: number; label?: string; out?: CliOut }): Promise<ApiKey> {
  const out = o.out ?? stdout;
  const issued = await withKeys(o.dataDir, (keys) => keys.createKey({ scopes: o.scopes, rpmLimit: o.rpm, label: o.label }));
  out(`created ${describe(issued.key)}`);
  out(`API key (shown once, store it now): ${issued.plaintext}`);
  return issued.key;
}

export async function rotateKeyCommand(o: { dataDir: string; id: string; out?: CliOut }): Promise<ApiKey> {
  const out = o.out ?? stdout;
  const issued = await withKeys(o.dataDir, (keys) => keys.rotateKey(o.id));
  out(`rotated ${o.id} -> ${describe(issued.key)}`);
  out(`API key (shown once, store it now): ${issued.plaintext}`);
  return issued.key;
}

export async function revokeKeyCommand(o: { dataDir: string; id: string; out?: CliOut }): Promise<ApiKey> {
  const out = o.out ?? stdout;
  const key = await withKeys(o.dataDir, (keys) => keys.revokeKey(o.id));
  out(`revoked ${describe(key)}`);
  return key;
}

export async function listKeysCommand(o: { dataDir: string; out?: CliOut }): Promise<ApiKey[]> {
  const out = o.out ?? stdout;
  const list = await withKeys(o.dataDir, (keys) => keys.listKeys());
  if (list.length === 0) out('no API keys');
  for (const k of list) out(describe(k));
  return list;
}
