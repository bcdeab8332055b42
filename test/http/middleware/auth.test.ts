// The scope matrix through real HTTP on 127.0.0.1: every caller kind × every required scope.
import { Router } from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKeyStore } from '../../../src/auth/keys.js';
import { SCOPES, type RequiredScope, type Scope } from '../../../src/auth/scopes.js';
import { authMiddleware, authorize, requireScope } from '../../../src/http/middleware/auth.js';
import { rawRequest, serve, tempEnv, type TempEnv, type TestServer } from './support.js';

const REQUIRED: RequiredScope[] = ['read', 'underwrite', 'write-state', 'webhooks', 'private'];

let t: TempEnv;
let server: TestServer;
const plaintextByScope = {} as Record<Scope, string>;
let revoked = '';
let rotatedAway = '';

beforeAll(async () => {
  t = tempEnv();
  const keys = openKeyStore(t.env);
  for (const s of SCOPES) plaintextByScope[s] = (await keys.createKey({ scopes: [s] })).plaintext;
  const r = await keys.createKey({ scopes: [...SCOPES] });
  await keys.revokeKey(r.key.id);
  revoked = r.plaintext;
  const o = await keys.createKey({ scopes: [...SCOPES] });
  await keys.rotateKey(o.key.id);
  rotatedAway = o.plaintext;
  server = await serve((app) => {
    const router = new Router();
    for (const scope of REQUIRED) router.get(`/op/${scope}`, requireScope(scope), (ctx) => void (ctx.body = { ok: true }));
    app.use(authMiddleware({ keys, trustProxy: false }));
    app.use(router.routes());
  });
});
afterAll(async () => {
  await server.close();
  await t.dispose();
});

/** The expected status, written out from the spec's Authentication section rather than derived from authorize(). */
function expected(caller: string, scope: RequiredScope): number {
  if (caller === 'anonymous') return scope === 'read' ? 200 : 401;
  if (caller.startsWith('key:')) {
    const held = caller.slice(4);
    return scope === 'read' || scope === 'private' || scope === held ? 200 : 403;
  }
  return 401; // revoked, rotated-away, malformed: a presented but invalid credential is refused everywhere
}

describe('requireScope(scope) over HTTP', () => {
  const malformed: Array<[string, string | Buffer]> = [
    ['malformed:no-scheme', 'avm_000000000000_' + 'A'.repeat(43)],
    ['malformed:basic', 'Basic dXNlcjpwYXNz'],
    ['malformed:bearer-only', 'Bearer'],
    ['malformed:extra-token', 'Bearer a b'],
    ['malformed:wrong-prefix', 'Bearer sk_000000000000_' + 'A'.repeat(43)],
    ['malformed:unknown-id', 'Bearer avm_000000000000_' + 'A'.repeat(43)],
    ['malformed:utf8-bytes', Buffer.from('Bearer avm_ключ_😀', 'utf8')],
    ['malformed:huge', 'Bearer ' + 'a'.repeat(8_000)],
  ];

  it('gives no unauthorized 2xx, 401 without a valid key, 403 for a missing scope, never 5xx', async () => {
    const callers: Array<[string, Array<[string, string | Buffer]>]> = [
      ['anonymous', []],
      ...SCOPES.map((s): [string, Array<[string, string]>] => [`key:${s}`, [['Authorization', `Bearer ${plaintextByScope[s]}`]]]),
      ['revoked', [['Authorization', `Bearer ${revoked}`]]],
      ['rotated-away', [['Authorization', `Bearer ${rotatedAway}`]]],
      ...malformed.map(([name, v]): [string, Array<[string, string | Buffer]>] => [name, [['Authorization', v]]]),
    ];
    const seen: string[] = [];
    for (const [caller, headers] of callers) {
      for (const scope of REQUIRED) {
        const res = await rawRequest(server.port, { path: `/op/${scope}`, headers });
        const want = expected(caller, scope);
        expect(res.status, `${caller} → ${scope}`).toBe(want);
        if (want !== 200) {
          const body = JSON.parse(res.body) as { error: { code: string; request_id: string } };
          expect(body.error.code).toBe(want === 401 ? 'unauthorized' : 'forbidden_scope');
          expect(body.error.request_id).not.toBe('');
        }
        seen.push(`${caller}:${scope}:${res.status}`);
      }
    }
    expect(seen).toHaveLength(callers.length * REQUIRED.length);
  });

  it('leaves headers over the Node limit (16 KiB) to Node: 431, not a 2xx or 5xx', async () => {
    const res = await rawRequest(server.port, { path: '/op/read', headers: [['Authorization', 'Bearer ' + 'a'.repeat(20_000)]] });
    expect(res.status).toBe(431);
  });

  it('adds WWW-Authenticate: Bearer on 401', async () => {
    const res = await rawRequest(server.port, { path: '/op/underwrite' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });
});

describe('authorize(caller, scope)', () => {
  it('lets the MCP door reuse the same decision without HTTP', () => {
    const key = { id: 'abc', scopes: ['underwrite'] as Scope[], rpm_limit: 60, created_at: '', rotated_from: null, revoked_at: null, label: null };
    expect(authorize({ kind: 'anonymous', ip: '1.2.3.4' }, 'read')).toBeNull();
    expect(authorize({ kind: 'anonymous', ip: '1.2.3.4' }, 'underwrite')?.status).toBe(401);
    expect(authorize({ kind: 'key', key, ip: '1.2.3.4' }, 'underwrite')).toBeNull();
    expect(authorize({ kind: 'key', key, ip: '1.2.3.4' }, 'write-state')?.code).toBe('forbidden_scope');
    expect(authorize({ kind: 'rejected', reason: 'revoked', ip: '1.2.3.4' }, 'read')?.code).toBe('unauthorized');
  });
});
