// Issue 16 item 2: the owner's self-serve keys over REST (/api/me/keys…), against a real service on loopback: create
// (secret once, stored hashed), list (never a secret), rotate (the old key refused at once), revoke, audit records of
// the owner's own keys, another owner's key id answered 404 on every action, no scope escalation, OAuth-minted keys
// listed and revocable but not manageable through a token, bad input 400, and other path spellings 404.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedKeyRecord } from '../support/stored-key.js';
import type { ServiceHandle } from '../../src/server.js';
import { Browser, consentAndReturn, REDIRECT_URI } from '../auth/oauth/support.js';
import { mintKey, startDoors } from '../mcp/support.js';

type Json = Record<string, unknown>;
type KeyView = { id: string; label: string | null; scopes: string[]; revoked_at: string | null; last_used_at: string | null; oauth: boolean; rotated_from: string | null };
let service: ServiceHandle;
let alice: string; // owner key: read, underwrite, write-state
let aliceId: string;
let bob: string; // another owner
let bobId: string;

beforeAll(async () => {
  service = await startDoors();
  ({ token: alice, id: aliceId } = await mintKey(service, ['read', 'underwrite', 'write-state']));
  ({ token: bob, id: bobId } = await mintKey(service, ['read']));
});
afterAll(async () => {
  await service?.close();
});

async function call(path: string, token: string | null, body?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const init: RequestInit = body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) };
  const res = await fetch(`${service.url}${path}`, init);
  return { status: res.status, body: (await res.json()) as Json };
}
const keysOf = async (token: string): Promise<KeyView[]> => (await call('/api/me/keys', token)).body.keys as KeyView[];
/** The audit is written in batches (audit_batch_ms, 250 ms): wait until a record shows, or give up after 3 s. */
async function auditUntil(token: string, query: string, ok: (recs: Json[]) => boolean): Promise<Json[]> {
  for (let i = 0; i < 30; i++) {
    const r = await call(`/api/me/keys/audit${query}`, token);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    if (ok(r.body.records as Json[])) return r.body.records as Json[];
    await new Promise((f) => setTimeout(f, 100));
  }
  throw new Error('audit records did not show up within 3 s');
}

describe('create, list, rotate, revoke', () => {
  it('creates a key with chosen scopes: the secret once, hashed in the store, absent from the listing; the key works and belongs to the owner', async () => {
    const r = await call('/api/me/keys', alice, { scopes: ['read', 'underwrite'], label: 'laptop' });
    expect(r.status).toBe(201);
    const secret = r.body.secret as string;
    const key = r.body.key as KeyView;
    expect(secret).toMatch(new RegExp(`^avm_${key.id}_[A-Za-z0-9_-]{43}$`));
    expect(key).toMatchObject({ label: 'laptop', scopes: ['read', 'underwrite'], revoked_at: null, oauth: false, last_used_at: null });
    const secretPart = secret.split('_').slice(2).join('_');
    const stored = (await storedKeyRecord(service, key.id))!;
    expect(stored.hash).toBe(createHash('sha256').update(secretPart).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(secretPart);
    const listing = await call('/api/me/keys', secret);
    expect(listing.status).toBe(200);
    expect(listing.body.owner).toBe(aliceId);
    expect(JSON.stringify(listing.body)).not.toContain(secretPart);
    expect(JSON.stringify(listing.body)).not.toMatch(/"(hash|secret)"/);
    expect((listing.body.keys as KeyView[]).map((k) => k.id)).toEqual([aliceId, key.id]);
    // the owner key was used (this listing, audited): last_used_at appears once the audit batch lands
    await auditUntil(alice, `?key_id=${aliceId}`, (recs) => recs.length > 0);
    expect((await keysOf(alice)).find((k) => k.id === aliceId)!.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('accepts alerts:write only from a key that holds webhooks, and stores it as webhooks', async () => {
    expect((await call('/api/me/keys', alice, { scopes: ['alerts:write'] })).body.error).toMatchObject({ code: 'forbidden_scope' });
    const hooks = await mintKey(service, ['read', 'webhooks']);
    const r = await call('/api/me/keys', hooks.token, { scopes: ['alerts:write'] });
    expect(r.status).toBe(201);
    expect((r.body.key as KeyView).scopes).toEqual(['webhooks']);
  });

  it('rotates: a new secret with the same scopes and label, the old key refused at once, the new one works', async () => {
    const made = await call('/api/me/keys', alice, { scopes: ['read', 'write-state'], label: 'script' });
    const old = made.body.secret as string;
    const oldId = (made.body.key as KeyView).id;
    const r = await call('/api/me/keys/rotate', alice, { key_id: oldId });
    expect(r.status).toBe(201);
    const key = r.body.key as KeyView;
    expect(r.body.revoked_key_id).toBe(oldId);
    expect(key).toMatchObject({ label: 'script', scopes: ['read', 'write-state'], rotated_from: oldId, revoked_at: null });
    expect((await call('/api/me/keys', old)).status).toBe(401);
    expect((await call('/api/me/keys', r.body.secret as string)).status).toBe(200);
    expect((await keysOf(alice)).find((k) => k.id === oldId)!.revoked_at).not.toBeNull();
    // a revoked key cannot be rotated again: a state conflict (409), not a malformed request
    const again = await call('/api/me/keys/rotate', alice, { key_id: oldId });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'key_not_rotatable' });
  });

  it('revokes: the key is refused at once, the listing shows when; revoking again keeps the first time', async () => {
    const made = await call('/api/me/keys', alice, { scopes: ['read'] });
    const id = (made.body.key as KeyView).id;
    const r = await call('/api/me/keys/revoke', alice, { key_id: id });
    expect(r.status).toBe(200);
    const at = (r.body.key as KeyView).revoked_at;
    expect(at).toMatch(/^\d{4}-/);
    expect((await call('/api/me/keys', made.body.secret as string)).status).toBe(401);
    expect(((await call('/api/me/keys/revoke', alice, { key_id: id })).body.key as KeyView).revoked_at).toBe(at);
  });

  it('a key never gives out more than it holds: creating or rotating beyond its scopes is 403', async () => {
    const narrow = await call('/api/me/keys', alice, { scopes: ['read'] });
    const r = await call('/api/me/keys', narrow.body.secret as string, { scopes: ['read', 'underwrite'] });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'forbidden_scope' });
    expect((await call('/api/me/keys/rotate', narrow.body.secret as string, { key_id: aliceId })).status).toBe(403);
    // revoking narrows nothing: the read-only key may revoke a broader key of the same owner
    const broad = await call('/api/me/keys', alice, { scopes: ['underwrite'] });
    expect((await call('/api/me/keys/revoke', narrow.body.secret as string, { key_id: (broad.body.key as KeyView).id })).status).toBe(200);
  });
});

describe('the active-key cap', () => {
  it('a valid create beyond the owner\'s active keys is 409 key_limit_reached (not a validation error); revoking one makes room', async () => {
    const { token: carol } = await mintKey(service, ['read']);
    const cap = 20; // auth_limits.owner_max_active_keys
    const made: string[] = [];
    for (let i = (await keysOf(carol)).filter((k) => !k.revoked_at).length; i < cap; i++) {
      const r = await call('/api/me/keys', carol, { scopes: ['read'], label: `k${i}` });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      made.push((r.body.key as KeyView).id);
    }
    const over = await call('/api/me/keys', carol, { scopes: ['read'] });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'key_limit_reached' });
    expect((await call('/api/me/keys/revoke', carol, { key_id: made[0] })).status).toBe(200);
    expect((await call('/api/me/keys', carol, { scopes: ['read'] })).status).toBe(201);
  });
});

describe('owners are apart', () => {
  it('another owner\'s key id answers 404 on rotate, revoke and audit, exactly like an unknown id; lists never cross', async () => {
    const unknown = randomBytes(6).toString('hex');
    for (const [path, body] of [['/api/me/keys/rotate', { key_id: bobId }], ['/api/me/keys/revoke', { key_id: bobId }]] as const) {
      const theirs = await call(path, alice, body);
      const none = await call(path, alice, { key_id: unknown });
      expect(theirs.status).toBe(404);
      expect(none.status).toBe(404);
      expect((theirs.body.error as Json).code).toBe('not_found');
      expect((theirs.body.error as Json).message).toBe(String((none.body.error as Json).message).replace(unknown, bobId));
    }
    expect((await call(`/api/me/keys/audit?key_id=${bobId}`, alice)).status).toBe(404);
    expect((await service.svc.backend!.keys.getKey(bobId))!.revoked_at).toBeNull();
    expect((await keysOf(bob)).map((k) => k.id)).toEqual([bobId]);
    expect((await keysOf(alice)).map((k) => k.id)).not.toContain(bobId);
  });

  it('the audit view holds records of the owner\'s keys only', async () => {
    await call('/api/me/keys', bob);
    const mine = await auditUntil(alice, '?limit=1000', (recs) => recs.length > 0);
    const aliceKeys = new Set((await keysOf(alice)).map((k) => k.id));
    expect(mine.every((r) => aliceKeys.has(r.key_id as string))).toBe(true);
    const theirs = await auditUntil(bob, '', (recs) => recs.some((r) => r.op === 'my_keys'));
    expect(theirs.every((r) => r.key_id === bobId)).toBe(true);
    const page = await call('/api/me/keys/audit?limit=1', bob);
    expect(page.body).toMatchObject({ retention_months: 12 });
    expect((page.body.records as Json[]).length).toBe(1);
    expect(Date.parse(page.body.since as string)).toBeLessThan(Date.now() - 364 * 86_400_000);
  });

  it('needs a key: anonymous is 401 on every key operation', async () => {
    for (const [path, body] of [['/api/me/keys', undefined], ['/api/me/keys', { scopes: ['read'] }], ['/api/me/keys/rotate', { key_id: aliceId }], ['/api/me/keys/revoke', { key_id: aliceId }], ['/api/me/keys/audit', undefined]] as const) {
      expect((await call(path, null, body)).status, path).toBe(401);
    }
  });
});

describe('keys an OAuth consent minted', () => {
  it('appear in the approving owner\'s list, are revocable there (ending the client\'s token), not rotatable, and a token cannot manage keys', async () => {
    const reg = await fetch(`${service.url}/oauth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Keys test client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'read underwrite' }),
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const verifier = randomBytes(32).toString('base64url');
    const u = new URL(`${service.url}/oauth/authorize`);
    const params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'read underwrite', state: 's', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', resource: service.url };
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    const back = await consentAndReturn(new Browser(), u, { decision: 'approve', owner_key: alice });
    const tok = await fetch(`${service.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT_URI, resource: service.url }).toString() });
    const accessToken = ((await tok.json()) as { access_token: string }).access_token;
    expect(accessToken).toBeTruthy();

    const viaToken = await call('/api/me/keys', accessToken);
    expect(viaToken.status).toBe(403);
    expect(viaToken.body.error).toMatchObject({ code: 'forbidden_scope' });
    expect((await call('/api/me/keys', accessToken, { scopes: ['read'] })).status).toBe(403);

    const minted = (await keysOf(alice)).find((k) => k.label === 'oauth: Keys test client')!;
    expect(minted).toMatchObject({ oauth: true, scopes: ['read', 'underwrite'], revoked_at: null });
    const rotateMinted = await call('/api/me/keys/rotate', alice, { key_id: minted.id });
    expect(rotateMinted.status).toBe(409);
    expect(rotateMinted.body.error).toMatchObject({ code: 'key_not_rotatable' });
    expect((await call('/api/me/keys', alice, { scopes: ['read'], label: 'OAuth: fake' })).status).toBe(400);
    // the token works for reads until its key is revoked by the owner
    expect((await call('/api/health', accessToken)).status).toBe(200);
    expect((await call('/api/me/keys/revoke', alice, { key_id: minted.id })).status).toBe(200);
    expect((await call('/api/health', accessToken)).status).toBe(401);
  });
});

describe('bad input and path spellings', () => {
  it('answers validation_failed 400 to unknown or empty scopes, a huge label, nested junk, extra keys and malformed ids', async () => {
    const bad: Array<[string, unknown]> = [
      ['/api/me/keys', { scopes: ['admin'] }],
      ['/api/me/keys', { scopes: [] }],
      ['/api/me/keys', { scopes: 'read' }],
      ['/api/me/keys', { scopes: ['constructor'] }],
      ['/api/me/keys', { scopes: ['read'], label: 'x'.repeat(101) }],
      ['/api/me/keys', { scopes: ['read'], label: '   ' }],
      ['/api/me/keys', { scopes: [['read']], label: { a: { b: [1] } } }],
      ['/api/me/keys', { scopes: ['read'], owner_id: bobId }],
      ['/api/me/keys', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'],
      ['/api/me/keys', '{"scopes":'],
      ['/api/me/keys/rotate', { key_id: 'ABCDEF012345' }],
      ['/api/me/keys/rotate', { key_id: `${aliceId}/x` }],
      ['/api/me/keys/revoke', {}],
      ['/api/me/keys/revoke', { key_id: [aliceId] }],
    ];
    for (const [path, body] of bad) {
      const r = await call(path, alice, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect((r.body.error as Json).code).toBe('validation_failed');
    }
    for (const q of ['?limit=0', '?limit=1001', '?key_id=zz', '?owner=x', '?limit=1e2x']) {
      expect((await call(`/api/me/keys/audit${q}`, alice)).status, q).toBe(400);
    }
    expect((await call('/api/me/keys?all=1', alice)).status).toBe(400);
    expect((await service.svc.backend!.keys.getKey(aliceId))!.revoked_at).toBeNull();
  });

  it('serves each path in its one spelling: a trailing slash or another case is 404 naming the served path', async () => {
    for (const path of ['/api/me/keys/', '/api/me/Keys', '/API/me/keys', '/api/me/keys/rotate/', '/api/me/keys/Revoke', '/api/me//keys', '/api/me/keys/audit/']) {
      const r = await call(path, alice, path.includes('rotate') || path.toLowerCase().includes('revoke') ? { key_id: aliceId } : undefined);
      expect(r.status, path).toBe(404);
      expect((r.body.error as Json).code).toBe('not_found');
    }
    expect((await service.svc.backend!.keys.getKey(aliceId))!.revoked_at).toBeNull();
  });
});
