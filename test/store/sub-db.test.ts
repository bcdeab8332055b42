// openSubDb opens a named sub-database once per environment: request paths read several per request (the stamp, the
// key, the registry), and lmdb-js builds a new store with its own decoder on every openDB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_NAMES, openEnv, openSubDb } from '../../src/store/env.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function freshEnv() {
  const dir = mkdtempSync(join(tmpdir(), 'avm-subdb-'));
  dirs.push(dir);
  return openEnv(dir);
}

describe('openSubDb(env, name)', () => {
  it('gives one handle per environment and name, each with its own encoding', async () => {
    const env = freshEnv();
    const keys = openSubDb(env, DB_NAMES.keys);
    expect(openSubDb(env, DB_NAMES.keys)).toBe(keys);
    expect(openSubDb(env, DB_NAMES.audit)).not.toBe(keys);
    await keys.put('k', { id: 'k', n: 1 });
    expect(openSubDb(env, DB_NAMES.keys).get('k')).toEqual({ id: 'k', n: 1 });
    // binary sub-databases keep their bytes
    const parcels = openSubDb<Buffer>(env, DB_NAMES.parcels);
    await parcels.put('p', Buffer.from([1, 2, 3]));
    expect([...(openSubDb<Buffer>(env, DB_NAMES.parcels).get('p') ?? [])]).toEqual([1, 2, 3]);
    await env.close();
  });

  it('opens its own handles for another environment', async () => {
    const [a, b] = [freshEnv(), freshEnv()];
    expect(openSubDb(a, DB_NAMES.keys)).not.toBe(openSubDb(b, DB_NAMES.keys));
    // a handle of one environment never reads another's data
    await openSubDb(a, DB_NAMES.keys).put('x', 1);
    expect(openSubDb(b, DB_NAMES.keys).get('x')).toBeUndefined();
    expect(openSubDb(a, DB_NAMES.keys).get('x')).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });
});
