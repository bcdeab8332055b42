import { Router } from '@koa/router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAudit, parseAnalyticsDays, retentionCutoff, scheduleAuditSweep, type LmdbAudit } from '../../src/auth/audit.js';
import type { Caller } from '../../src/auth/authorize.js';
import { openKeyStore } from '../../src/auth/keys.js';
import { AUTH_LIMITS } from '../../src/registry/groups/auth.js';
import { DB_NAMES, openSubDb } from '../../src/store/env.js';
import { auditMiddleware } from '../../src/http/middleware/audit.js';
import { authMiddleware } from '../../src/http/middleware/auth.js';
import { requireOperator } from '../../src/http/middleware/operator.js';
import { rawRequest, serve, tempEnv, type TempEnv } from '../http/middleware/support.js';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const keyCaller = (id: string): Caller => ({ kind: 'key', ip: '127.0.0.1', key: { id, scopes: ['read'], rpm_limit: 60, created_at: '', rotated_from: null, revoked_at: null, label: null } });
const anon: Caller = { kind: 'anonymous', ip: '127.0.0.1' };

let t: TempEnv;
let audit: LmdbAudit;
beforeEach(() => {
  t = tempEnv();
  audit = openAudit(t.env, { now: () => NOW });
});
afterEach(async () => t.dispose());

describe('record + analytics(days)', () => {
  it('meters per day, per key or anonymous, per operation, and audits keyed calls only', async () => {
    audit.record({ caller: keyCaller('k1'), op: 'underwrite', status: 200, requestId: 'r1' });
    audit.record({ caller: keyCaller('k1'), op: 'underwrite', status: 200, requestId: 'r2' });
    audit.record({ caller: keyCaller('k2'), op: 'get_comps', status: 403, requestId: 'r3', atMs: NOW - DAY_MS });
    audit.record({ caller: anon, op: 'underwrite', status: 200, requestId: 'r4' });
    audit.record({ caller: { kind: 'rejected', reason: 'revoked', ip: '127.0.0.1' }, op: 'underwrite', status: 401, requestId: 'r5' });
    audit.record({ caller: anon, op: 'underwrite', status: 200, requestId: 'r6', atMs: NOW - 2 * DAY_MS }); // outside days=2
    await audit.flush();
    const a = audit.analytics(2);
    // Window = 2026-11-20..2026-11-21: k1 x2 + anon x1 + rejected x1 today, k2 x1 yesterday.
    expect(a).toEqual({
      days: 2,
      from: '2026-11-20',
      to: '2026-11-21',
      total_calls: 5,
      anonymous_calls: 1,
      keyed_calls: 3,
      rejected_calls: 1,
      active_keys: 2,
      by_day: [
        { date: '2026-11-20', anonymous: 0, keyed: 1, rejected: 0 },
        { date: '2026-11-21', anonymous: 1, keyed: 2, rejected: 1 },
      ],
      by_operation: [
        { op: 'underwrite', calls: 4 },
        { op: 'get_comps', calls: 1 },
      ],
    });
    expect(audit.auditFor('k1').map((r) => [r.request_id, r.status, r.ip])).toEqual([['r1', 200, '127.0.0.1'], ['r2', 200, '127.0.0.1']]);
  });
});

describe('batched writes', () => {
  it('writes a batch by itself after audit_batch_ms, without flush()', async () => {
    audit.record({ caller: keyCaller('k1'), op: 'underwrite', status: 200, requestId: 'b1' });
    audit.record({ caller: anon, op: 'underwrite', status: 200, requestId: 'b2' });
    expect(audit.analytics(1).total_calls).toBe(0); // still in memory
    const deadline = Date.now() + 10 * AUTH_LIMITS.v.audit_batch_ms;
    while (audit.analytics(1).total_calls < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(audit.analytics(1)).toMatchObject({ total_calls: 2, keyed_calls: 1, anonymous_calls: 1 });
    expect(audit.auditFor('k1').map((r) => r.request_id)).toEqual(['b1']);
  });

  it('adds a batch to the counts already stored (same day, caller and operation)', async () => {
    for (let i = 0; i < 3; i++) audit.record({ caller: anon, op: 'x', status: 200, requestId: `r${i}` });
    await audit.flush();
    for (let i = 0; i < 2; i++) audit.record({ caller: anon, op: 'x', status: 200, requestId: `s${i}` });
    await audit.flush();
    expect(audit.analytics(1).by_operation).toEqual([{ op: 'x', calls: 5 }]);
  });

  it('close() writes what was recorded and then never touches the store again (a request cut by shutdown records late)', async () => {
    audit.record({ caller: anon, op: 'x', status: 200, requestId: 'c1' });
    await audit.close();
    await t.env.close(); // the store closes right after, as at shutdown
    audit.record({ caller: keyCaller('k1'), op: 'x', status: 499, requestId: 'late' });
    await new Promise((r) => setTimeout(r, 3 * AUTH_LIMITS.v.audit_batch_ms)); // the batch timer fires: nothing is written, nothing throws
    await expect(audit.flush()).resolves.toBeUndefined();
  });
});

describe('pruneAudit(now)', () => {
  it('removes audit and metering rows older than 12 calendar months, keeps newer ones', async () => {
    expect(retentionCutoff(NOW).toISOString()).toBe('2025-11-21T12:00:00.000Z');
    audit.record({ caller: keyCaller('k1'), op: 'x', status: 200, requestId: 'old', atMs: Date.UTC(2025, 10, 20) });
    audit.record({ caller: keyCaller('k1'), op: 'x', status: 200, requestId: 'kept', atMs: Date.UTC(2025, 10, 22) });
    await audit.flush();
    const { removed } = await audit.pruneAudit(NOW);
    expect(removed).toBe(2); // one audit record + its metering row of 2025-11-20
    expect(audit.auditFor('k1').map((r) => r.request_id)).toEqual(['kept']);
    expect(audit.analytics(366).keyed_calls).toBe(1);
  });
});

describe('latestFor(key, since, limit): the owner\'s view of one key (per-key index)', () => {
  it('answers one key\'s records newest first from `since`; the sweep removes indexed records past 12 months; records from before the index are indexed by the first sweep', async () => {
    // a record written before the per-key index existed: only its time-keyed row
    const db = openSubDb<unknown>(t.env, DB_NAMES.audit);
    await db.put('a:2026-01-05T00:00:00.000Z:k1:999', { key_id: 'k1', op: 'legacy', at: '2026-01-05T00:00:00.000Z', status: 200, request_id: 'legacy', ip: '127.0.0.1' });
    audit.record({ caller: keyCaller('k1'), op: 'x', status: 200, requestId: 'old', atMs: Date.UTC(2025, 10, 20) });
    audit.record({ caller: keyCaller('k1'), op: 'x', status: 200, requestId: 'a', atMs: NOW - 2 * DAY_MS });
    audit.record({ caller: keyCaller('k1'), op: 'x', status: 200, requestId: 'b', atMs: NOW - DAY_MS });
    audit.record({ caller: keyCaller('k2'), op: 'x', status: 200, requestId: 'other', atMs: NOW });
    await audit.flush();
    const since = retentionCutoff(NOW).toISOString();
    expect(audit.latestFor('k1', since, 10).map((r) => r.request_id)).toEqual(['b', 'a']);
    expect(audit.latestFor('k1', '2020-01-01T00:00:00.000Z', 10).map((r) => r.request_id)).toEqual(['b', 'a', 'old']);
    expect(audit.latestFor('k1', since, 1).map((r) => r.request_id)).toEqual(['b']);
    expect(db.get('k:k1:2025-11-20T00:00:00.000Z:1')).toMatchObject({ request_id: 'old' });
    await audit.pruneAudit(NOW);
    expect(audit.latestFor('k1', '2020-01-01T00:00:00.000Z', 10).map((r) => r.request_id)).toEqual(['b', 'a', 'legacy']);
    expect(db.get('k:k1:2025-11-20T00:00:00.000Z:1')).toBeUndefined();
  });
});

describe('scheduleAuditSweep', () => {
  it('sweeps rows past retention at once, and stop() waits for the sweep', async () => {
    audit.record({ caller: keyCaller('k1'), op: 'x', status: 200, requestId: 'old', atMs: Date.UTC(2025, 5, 1) });
    audit.record({ caller: keyCaller('k1'), op: 'x', status: 200, requestId: 'new', atMs: NOW });
    await audit.flush();
    const errors: unknown[] = [];
    const sweeper = scheduleAuditSweep(audit, (e) => errors.push(e), () => NOW);
    await sweeper.first;
    await sweeper.stop();
    expect(errors).toEqual([]);
    expect(audit.auditFor('k1').map((r) => r.request_id)).toEqual(['new']);
  });
});

describe('parseAnalyticsDays(raw)', () => {
  it('accepts 1..366 and refuses anything else with validation_failed', () => {
    expect(parseAnalyticsDays('30')).toBe(30);
    for (const bad of [undefined, '', '0', '367', '-1', '1.5', 'abc', '30 ']) {
      expect(() => parseAnalyticsDays(bad), String(bad)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    }
  });
});

describe('requireOperator(writeSecret) + auditMiddleware over HTTP', () => {
  it('serves GET /api/admin/analytics only with the operator secret, and meters the calls', async () => {
    const secret = 'operator-secret-0123456789';
    const keys = openKeyStore(t.env);
    const server = await serve((app) => {
      const router = new Router();
      router.get('/api/admin/analytics', requireOperator(secret), (ctx) => void (ctx.body = audit.analytics(parseAnalyticsDays(ctx.query.days))));
      app.use(authMiddleware({ keys, trustProxy: false }));
      app.use(auditMiddleware({ audit }));
      app.use(router.routes());
    });
    try {
      const path = '/api/admin/analytics?days=7';
      expect((await rawRequest(server.port, { path })).status).toBe(401);
      expect((await rawRequest(server.port, { path, headers: [['Authorization', 'Bearer wrong']] })).status).toBe(401);
      expect((await rawRequest(server.port, { path, headers: [['Authorization', `Bearer ${secret}x`]] })).status).toBe(401);
      const ok = await rawRequest(server.port, { path, headers: [['Authorization', `Bearer ${secret}`]] });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body).days).toBe(7);
      const bad = await rawRequest(server.port, { path: '/api/admin/analytics?days=0', headers: [['Authorization', `Bearer ${secret}`]] });
      expect(bad.status).toBe(400);
      await audit.flush();
      // 5 calls so far, all metered under `rejected` (wrong or operator bearer) or `anonymous` (none), op = the operation
      // the method and path name (even the 401s, refused before any route ran).
      expect(audit.analytics(1).by_operation).toEqual([{ op: 'admin_analytics', calls: 5 }]);
    } finally {
      await server.close();
    }
  });

  it('is always 401 while WRITE_SECRET is unset', async () => {
    const server = await serve((app) => app.use(requireOperator(null)));
    try {
      expect((await rawRequest(server.port, { path: '/', headers: [['Authorization', 'Bearer ']] })).status).toBe(401);
      expect((await rawRequest(server.port, { path: '/', headers: [['Authorization', 'Bearer null']] })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
