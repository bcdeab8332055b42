// The Audit contract, on LMDB and on PostgreSQL: batched records and metering read back the same way.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/auth/authorize.js';
import type { ApiKey } from '../../../src/auth/keys.js';
import { BACKENDS, backendFactory, skipBackend } from './backends.js';

const key = (id: string): ApiKey => ({ id, scopes: ['read'], rpm_limit: 60, created_at: '2026-01-01T00:00:00.000Z', rotated_from: null, revoked_at: null, label: null, owner_id: id });
const keyed = (id: string): Caller => ({ kind: 'key', key: key(id), ip: '10.0.0.1' });
const NOW = Date.parse('2026-11-20T10:00:00Z');
const DAY = 86_400_000;

describe.each(BACKENDS)('Audit on %s', (kind) => {
  describe.skipIf(skipBackend(kind))('contract', () => {
    const factory = backendFactory(kind);

    it('counts every call by day, subject and operation, and keeps keyed records newest first per key', async () => {
      const { audit } = (await factory.open({ now: () => NOW })).backend;
      audit.record({ caller: keyed('aaaaaaaaaaaa'), op: 'value_property', status: 200, requestId: 'r1', atMs: NOW - DAY });
      audit.record({ caller: keyed('aaaaaaaaaaaa'), op: 'value_property', status: 200, requestId: 'r2', atMs: NOW - 1_000 });
      audit.record({ caller: keyed('aaaaaaaaaaaa'), op: 'add_note', status: 400, requestId: 'r3', atMs: NOW });
      audit.record({ caller: keyed('bbbbbbbbbbbb'), op: 'add_note', status: 200, requestId: 'r4', atMs: NOW });
      audit.record({ caller: { kind: 'anonymous', ip: '1.2.3.4' }, op: 'value_property', status: 200, requestId: 'r5', atMs: NOW });
      audit.record({ caller: { kind: 'rejected', reason: 'bad_secret', ip: '1.2.3.4' }, op: 'value_property', status: 401, requestId: 'r6', atMs: NOW });
      await audit.flush();
      const a = await audit.analytics(7, NOW);
      expect(a).toMatchObject({ days: 7, total_calls: 6, anonymous_calls: 1, keyed_calls: 4, rejected_calls: 1, active_keys: 2, to: '2026-11-20', from: '2026-11-14' });
      expect(a.by_day).toEqual([{ date: '2026-11-19', anonymous: 0, keyed: 1, rejected: 0 }, { date: '2026-11-20', anonymous: 1, keyed: 3, rejected: 1 }]);
      expect(a.by_operation).toEqual([{ op: 'value_property', calls: 4 }, { op: 'add_note', calls: 2 }]);
      expect((await audit.analytics(1, NOW)).total_calls).toBe(5);
      const latest = await audit.latestFor('aaaaaaaaaaaa', new Date(NOW - 2 * DAY).toISOString(), 2);
      expect(latest.map((r) => r.request_id)).toEqual(['r3', 'r2']);
      expect(latest[0]).toEqual({ key_id: 'aaaaaaaaaaaa', op: 'add_note', at: new Date(NOW).toISOString(), status: 400, request_id: 'r3', ip: '10.0.0.1' });
      expect((await audit.latestFor('aaaaaaaaaaaa', new Date(NOW - 10_000).toISOString(), 10)).map((r) => r.request_id)).toEqual(['r3', 'r2']);
      expect((await audit.auditFor('bbbbbbbbbbbb')).map((r) => r.request_id)).toEqual(['r4']);
      await expect(Promise.resolve().then(() => audit.analytics(0, NOW))).rejects.toMatchObject({ code: 'validation_failed' });
    });

    it('prunes records and metering older than 12 months, keeping the rest', async () => {
      const { audit } = (await factory.open({ now: () => NOW })).backend;
      audit.record({ caller: keyed('cccccccccccc'), op: 'old', status: 200, requestId: 'old', atMs: NOW - 400 * DAY });
      audit.record({ caller: keyed('cccccccccccc'), op: 'new', status: 200, requestId: 'new', atMs: NOW - DAY });
      await audit.flush();
      expect((await audit.pruneAudit(NOW)).removed).toBe(2); // one record and its metering row
      expect((await audit.auditFor('cccccccccccc')).map((r) => r.request_id)).toEqual(['new']);
      expect((await audit.analytics(366, NOW)).by_operation).toEqual([{ op: 'new', calls: 1 }]);
    });
  });
});
