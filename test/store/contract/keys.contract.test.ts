// The KeyStore contract, on LMDB and on PostgreSQL: the same calls give the same answers.
import { describe, expect, it } from 'vitest';
import type { KeyStore } from '../../../src/auth/keys.js';
import { BACKENDS, backendFactory, skipBackend } from './backends.js';

describe.each(BACKENDS)('KeyStore on %s', (kind) => {
  describe.skipIf(skipBackend(kind))('contract', () => {
    const factory = backendFactory(kind);
    let clock = Date.parse('2026-11-20T10:00:00Z');
    const open = async (): Promise<KeyStore> => (await factory.open({ now: () => clock })).backend.keys;

    it('issues a key that verifies, is listed and owns itself; wrong secrets, unknown ids and junk are refused', async () => {
      const keys = await open();
      const { plaintext, key } = await keys.createKey({ scopes: ['read', 'write-state'], label: 'mine' });
      expect(key).toMatchObject({ scopes: ['read', 'write-state'], label: 'mine', revoked_at: null, rotated_from: null, owner_id: key.id });
      expect(await keys.verifyBearer(`Bearer ${plaintext}`)).toEqual({ ok: true, key });
      expect(await keys.getKey(key.id)).toEqual(key);
      expect(await keys.listKeys()).toEqual([key]);
      const wrong = `${plaintext.slice(0, -1)}${plaintext.endsWith('A') ? 'B' : 'A'}`;
      expect(await keys.verifyBearer(`Bearer ${wrong}`)).toEqual({ ok: false, reason: 'bad_secret' });
      expect(await keys.verifyBearer(`Bearer avm_000000000000_${plaintext.slice(17)}`)).toEqual({ ok: false, reason: 'unknown_key' });
      expect(await keys.verifyBearer('Bearer nope')).toEqual({ ok: false, reason: 'malformed' });
      expect(await keys.verifyBearer(undefined)).toEqual({ ok: false, reason: 'missing' });
      expect(await keys.getKey('000000000000')).toBeNull();
      expect(await keys.ownerIdOf('000000000000')).toBe('000000000000');
    });

    it('rotates in one step (new key works, old is revoked, same owner) and refuses to rotate a revoked or unknown key', async () => {
      const keys = await open();
      const first = await keys.createKey({ scopes: ['read'], rpmLimit: 77, label: 'l' });
      clock += 1_000;
      const second = await keys.rotateKey(first.key.id);
      expect(second.key).toMatchObject({ scopes: ['read'], rpm_limit: 77, label: 'l', rotated_from: first.key.id, owner_id: first.key.id });
      expect(await keys.verifyBearer(`Bearer ${second.plaintext}`)).toMatchObject({ ok: true });
      expect(await keys.verifyBearer(`Bearer ${first.plaintext}`)).toEqual({ ok: false, reason: 'revoked' });
      expect(await keys.ownerIdOf(second.key.id)).toBe(first.key.id);
      await expect(keys.rotateKey(first.key.id)).rejects.toMatchObject({ code: 'key_not_rotatable' });
      await expect(keys.rotateKey('000000000000')).rejects.toMatchObject({ code: 'not_found' });
      expect((await keys.listOwnerKeys(first.key.id)).map((k) => k.id)).toEqual([first.key.id, second.key.id]);
    });

    it('revokes idempotently, keeping the first revocation time; lists an owner\'s keys only', async () => {
      const keys = await open();
      const a = await keys.createKey({ scopes: ['read'] });
      const b = await keys.createKey({ scopes: ['read'], ownerId: a.key.id });
      const other = await keys.createKey({ scopes: ['read'] });
      const at = new Date(clock).toISOString();
      expect((await keys.revokeKey(b.key.id)).revoked_at).toBe(at);
      clock += 60_000;
      expect((await keys.revokeKey(b.key.id)).revoked_at).toBe(at);
      await expect(keys.revokeKey('000000000000')).rejects.toMatchObject({ code: 'not_found' });
      expect((await keys.listOwnerKeys(a.key.id)).map((k) => k.id).sort()).toEqual([a.key.id, b.key.id].sort());
      expect((await keys.listKeys()).map((k) => k.id)).toContain(other.key.id);
      await expect(keys.createKey({ scopes: ['read'], rpmLimit: 0 })).rejects.toMatchObject({ code: 'validation_failed' });
      await expect(keys.createKey({ scopes: ['no-such-scope'] })).rejects.toMatchObject({ code: 'validation_failed' });
    });
  });
});
