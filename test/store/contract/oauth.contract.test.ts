// The OAuthStore contract, on LMDB and on PostgreSQL: expiry, atomic single use, revocation by grant, the sweep,
// secrets made once, and the grant-to-key bindings. (The LMDB adapter's own suite was this one on one backend.)
import { describe, expect, it } from 'vitest';
import { BACKENDS, backendFactory, skipBackend } from './backends.js';

describe.each(BACKENDS)('OAuthStore on %s', (kind) => {
  describe.skipIf(skipBackend(kind))('contract', () => {
    const factory = backendFactory(kind);
    let nowMs = 1_800_000_000_000;
    const open = async () => (await factory.open()).backend.oauth;

    it('treats a record past its expiry as absent, and finds a session by uid', async () => {
      const store = await open();
      const codes = store.adapterFactory(() => nowMs)('AuthorizationCode');
      await codes.upsert('c1', { grantId: 'g1', accountId: 'a' }, 60);
      expect(await codes.find('c1')).toMatchObject({ grantId: 'g1', accountId: 'a' });
      nowMs += 61_000;
      expect(await codes.find('c1')).toBeUndefined();
      const sessions = store.adapterFactory(() => nowMs)('Session');
      await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 600);
      expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'a' });
      expect(await sessions.findByUid('nope')).toBeUndefined();
    });

    it('consumes once, also when two consumes race: the other is refused with invalid_grant', async () => {
      const codes = (await open()).adapterFactory(() => nowMs)('AuthorizationCode');
      await codes.upsert('c1', { grantId: 'g1' }, 60);
      const outcomes = await Promise.allSettled([codes.consume('c1'), codes.consume('c1')]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!.reason).toMatchObject({ error: 'invalid_grant' });
      expect((await codes.find('c1'))?.consumed).toBe(Math.floor(nowMs / 1000));
      await expect(codes.consume('c1')).rejects.toMatchObject({ error: 'invalid_grant' }); // and a later one too
    });

    it('revokes every record of a grant, across models, and nothing else', async () => {
      const make = (await open()).adapterFactory(() => nowMs);
      const [codes, access, refresh] = ['AuthorizationCode', 'AccessToken', 'RefreshToken'].map(make);
      await codes.upsert('c1', { grantId: 'g1' }, 60);
      await access.upsert('a1', { grantId: 'g1' }, 3600);
      await refresh.upsert('r1', { grantId: 'g1' }, 3600);
      await access.upsert('a2', { grantId: 'g2' }, 3600);
      await access.revokeByGrantId('g1');
      expect([await codes.find('c1'), await access.find('a1'), await refresh.find('r1')]).toEqual([undefined, undefined, undefined]);
      expect(await access.find('a2')).toMatchObject({ grantId: 'g2' });
    });

    it('sweeps expired records only; makes its secrets once; binds grants to keys', async () => {
      const store = await open();
      const make = store.adapterFactory(() => nowMs);
      await make('AuthorizationCode').upsert('old', { grantId: 'g1' }, 60);
      await make('AccessToken').upsert('live', { grantId: 'g1' }, 3600);
      await make('Client').upsert('client-1', { client_id: 'client-1' }, undefined as unknown as number);
      expect(await store.sweepExpired(nowMs + 120_000)).toBe(1);
      expect(await make('AccessToken').find('live')).toBeDefined();
      expect(await make('Client').find('client-1')).toMatchObject({ client_id: 'client-1' });
      expect(await store.sweepExpired(nowMs + 120_000)).toBe(0);
      const [s1, s2] = await Promise.all([store.secrets(), store.secrets()]);
      expect(s1).toEqual(s2);
      expect(s1.cookieKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await store.keyOfGrant('g9')).toBeNull();
      await store.bindGrantToKey('g9', 'aaaaaaaaaaaa');
      expect(await store.keyOfGrant('g9')).toBe('aaaaaaaaaaaa');
    });
  });
});
