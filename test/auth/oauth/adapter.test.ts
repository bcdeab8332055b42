// The LMDB adapter of the authorization server: expiry, atomic single use, revocation by grant, and the sweep.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lmdbAdapterFactory, sweepExpiredOAuthRecords } from '../../../src/auth/oauth/adapter.js';
import { openEnv } from '../../../src/store/env.js';

let dir: string;
let env: RootDatabase;
let nowMs: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'avm-oauth-adapter-'));
  env = openEnv(dir);
  nowMs = 1_800_000_000_000;
});
afterEach(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lmdb adapter', () => {
  it('treats a record past its expiry as absent', async () => {
    const codes = lmdbAdapterFactory(env, () => nowMs)('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1', accountId: 'a' }, 60);
    expect(await codes.find('c1')).toMatchObject({ grantId: 'g1' });
    nowMs += 61_000;
    expect(await codes.find('c1')).toBeUndefined();
  });

  it('consumes once: a second consume is refused with invalid_grant', async () => {
    const codes = lmdbAdapterFactory(env, () => nowMs)('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toBe(Math.floor(nowMs / 1000));
    await expect(codes.consume('c1')).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes every record of a grant, across models, and nothing else', async () => {
    const factory = lmdbAdapterFactory(env, () => nowMs);
    const [codes, access, refresh] = ['AuthorizationCode', 'AccessToken', 'RefreshToken'].map(factory);
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await access.upsert('a1', { grantId: 'g1' }, 3600);
    await refresh.upsert('r1', { grantId: 'g1' }, 3600);
    await access.upsert('a2', { grantId: 'g2' }, 3600);
    await access.revokeByGrantId('g1');
    expect([await codes.find('c1'), await access.find('a1'), await refresh.find('r1')]).toEqual([undefined, undefined, undefined]);
    expect(await access.find('a2')).toMatchObject({ grantId: 'g2' });
  });

  it('sweeps expired records and keeps live ones and records without expiry', async () => {
    const factory = lmdbAdapterFactory(env, () => nowMs);
    await factory('AuthorizationCode').upsert('old', { grantId: 'g1' }, 60);
    await factory('AccessToken').upsert('live', { grantId: 'g1' }, 3600);
    await factory('Client').upsert('client-1', { client_id: 'client-1' }, undefined as unknown as number);
    expect(await sweepExpiredOAuthRecords(env, nowMs + 120_000)).toBe(1);
    expect(await factory('AccessToken').find('live')).toBeDefined();
    expect(await factory('Client').find('client-1')).toBeDefined();
    expect(await sweepExpiredOAuthRecords(env, nowMs + 120_000)).toBe(0);
  });
});
