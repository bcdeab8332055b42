// Issue 16 item 1, the refusals: each misuse of the authorization flow is refused with the OAuth error RFC 6749 /
// 7636 / 8707 / 7009 name (or, on the service's own consent form, the taxonomy's csrf_rejected), at the raw protocol
// level, plus refresh-token rotation, revocation, and the canonical-path guard on the new paths.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceHandle } from '../../../src/server.js';
import { mintKey, startDoors } from '../../mcp/support.js';
import { Browser, consentAndReturn, openConsent, REDIRECT_URI, submitConsent } from './support.js';

let service: ServiceHandle;
let ownerKey: string;
let clientId: string;
beforeAll(async () => {
  service = await startDoors();
  ownerKey = (await mintKey(service, ['read'])).token;
  const reg = await fetch(`${service.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Negative tests', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'read underwrite' }),
  });
  expect(reg.status).toBe(201);
  clientId = ((await reg.json()) as { client_id: string }).client_id;
});
afterAll(async () => {
  await service?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function authorizationUrl(over: Record<string, string> = {}, challenge = pkce().challenge): URL {
  const u = new URL(`${service.url}/oauth/authorize`);
  const params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'read underwrite', state: 'st-1', code_challenge: challenge, code_challenge_method: 'S256', resource: `${service.url}/mcp`, ...over };
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u;
}

/** A fresh approved code with its verifier (resource defaults to /mcp). */
async function approvedCode(over: Record<string, string> = {}): Promise<{ code: string; verifier: string }> {
  const p = pkce();
  const back = await consentAndReturn(new Browser(), authorizationUrl(over, p.challenge), { decision: 'approve', owner_key: ownerKey });
  const code = back.searchParams.get('code');
  expect(code, back.href).toBeTruthy();
  return { code: code!, verifier: p.verifier };
}

async function tokenRequest(fields: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${service.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, ...fields }).toString() });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const exchange = (code: string, verifier: string, over: Record<string, string> = {}) =>
  tokenRequest({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI, ...over });

/** An underwrite tool call on /mcp with this bearer: the HTTP status and the WWW-Authenticate header. */
async function callUnderwrite(token: string, path = '/mcp'): Promise<{ status: number; challenge: string | null }> {
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_comps', arguments: { lat: 41.88, lon: -87.7 } } }),
  });
  await res.text();
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
}

describe('authorization code + PKCE', () => {
  it('issues tokens for the right verifier, and the token works on /mcp', async () => {
    const { code, verifier } = await approvedCode();
    const t = await exchange(code, verifier);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ token_type: 'Bearer', scope: 'read underwrite' });
    expect((await callUnderwrite(t.body.access_token)).status).toBe(200);
  });

  it('refuses a wrong verifier with invalid_grant', async () => {
    const { code } = await approvedCode();
    const t = await exchange(code, pkce().verifier);
    expect(t.status).toBe(400);
    expect(t.body.error).toBe('invalid_grant');
  });

  it('refuses plain PKCE (and a request without PKCE) at the authorization endpoint with invalid_request', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ code_challenge_method: 'plain' }, /not supported value of code_challenge_method/],
      [{ code_challenge: '', code_challenge_method: '' }, /requires PKCE/],
    ];
    for (const [over, why] of cases) {
      const back = await new Browser().follow(authorizationUrl(over));
      expect(back.searchParams.get('error'), back.href).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(why);
      expect(back.searchParams.get('state')).toBe('st-1');
      expect(back.searchParams.get('iss')).toBe(service.url);
    }
  });

  it('refuses a reused code with invalid_grant, and revokes what the first use issued', async () => {
    const { code, verifier } = await approvedCode();
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    const again = await exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await callUnderwrite(first.body.access_token)).status).toBe(401);
  });

  it('revokes the key a grant minted when the grant is revoked (a replayed refresh token)', async () => {
    const { code, verifier } = await approvedCode();
    const t = await exchange(code, verifier);
    const keys = service.svc.backend!.keys;
    const minted = (await keys.listKeys()).filter((k) => k.label === 'oauth: Negative tests').at(-1)!;
    expect(minted.revoked_at).toBeNull();
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token })).status).toBe(200);
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token })).body.error).toBe('invalid_grant');
    await vi.waitFor(async () => expect((await keys.getKey(minted.id))?.revoked_at).not.toBeNull());
  });

  it('lets exactly one of two concurrent exchanges of one code succeed (single use under a race)', async () => {
    const { code, verifier } = await approvedCode();
    const results = await Promise.all([exchange(code, verifier), exchange(code, verifier)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.error).toBe('invalid_grant');
  });

  it('refuses an expired code with invalid_grant', async () => {
    const { code, verifier } = await approvedCode();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 60_000); // past the 60 s code lifetime and the 15 s clock tolerance
    const t = await exchange(code, verifier);
    expect(t.status).toBe(400);
    expect(t.body.error).toBe('invalid_grant');
  });
});

describe('scope', () => {
  it('serves a request that omits scope with the default (read underwrite), as OAuth 2.1 section 3.2.2.1 allows', async () => {
    const { code, verifier } = await approvedCode({ scope: '' });
    const t = await exchange(code, verifier);
    expect(t.status).toBe(200);
    expect(t.body.scope).toBe('read underwrite');
  });
});

describe('redirect URIs are matched exactly', () => {
  it('refuses, without redirecting, an authorization request whose redirect URI differs by one character', async () => {
    const res = await new Browser().request(authorizationUrl({ redirect_uri: 'http://127.0.0.1:9/callbacK' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(((await res.json()) as { error: string }).error).toBe('invalid_redirect_uri');
  });

  it('refuses a token request whose redirect URI differs by one character with invalid_grant', async () => {
    const { code, verifier } = await approvedCode();
    const t = await exchange(code, verifier, { redirect_uri: 'http://127.0.0.1:9/callbacks' });
    expect(t.status).toBe(400);
    expect(t.body.error).toBe('invalid_grant');
  });
});

describe('resource indicators (RFC 8707)', () => {
  it('refuses to authorize for a resource this server does not serve: invalid_target', async () => {
    const back = await new Browser().follow(authorizationUrl({ resource: 'https://other.example/mcp' }));
    expect(back.searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses a token request for another resource than the code was granted for: invalid_target', async () => {
    const { code, verifier } = await approvedCode();
    const t = await exchange(code, verifier, { resource: service.url });
    expect(t.status).toBe(400);
    expect(t.body.error).toBe('invalid_target');
  });

  it('refuses on use a token minted for the REST API when it is presented to /mcp (401 invalid_token)', async () => {
    const { code, verifier } = await approvedCode({ resource: service.url });
    const t = await exchange(code, verifier);
    expect(t.status).toBe(200);
    const r = await callUnderwrite(t.body.access_token);
    expect(r.status).toBe(401);
    expect(r.challenge).toContain('error="invalid_token"');
    // …and the same token is accepted by the REST API it was minted for (a private operation needs a valid key).
    const state = await fetch(`${service.url}/api/state`, { headers: { authorization: `Bearer ${t.body.access_token}` } });
    expect(state.status).toBe(200);
  });
});

describe('refresh, revocation, revoked key', () => {
  it('rotates the refresh token on use; the old one is then refused with invalid_grant', async () => {
    const { code, verifier } = await approvedCode();
    const t = await exchange(code, verifier);
    const r1 = await tokenRequest({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token });
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).toBeTruthy();
    expect(r1.body.refresh_token).not.toBe(t.body.refresh_token);
    expect((await callUnderwrite(r1.body.access_token)).status).toBe(200);
    const replay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
  });

  it('refuses a token after RFC 7009 revocation', async () => {
    const { code, verifier } = await approvedCode();
    const t = await exchange(code, verifier);
    const rev = await fetch(`${service.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, token: t.body.access_token }).toString() });
    expect(rev.status).toBe(200);
    expect((await callUnderwrite(t.body.access_token)).status).toBe(401);
  });

  it('refuses a token whose key its owner revoked (401 invalid_token, "API key revoked")', async () => {
    const { code, verifier } = await approvedCode();
    const t = await exchange(code, verifier);
    expect((await callUnderwrite(t.body.access_token)).status).toBe(200);
    const keys = service.svc.backend!.keys;
    const minted = (await keys.listKeys()).filter((k) => k.label === 'oauth: Negative tests' && !k.revoked_at).at(-1)!;
    await keys.revokeKey(minted.id);
    const r = await callUnderwrite(t.body.access_token);
    expect(r.status).toBe(401);
    expect(r.challenge).toContain('error="invalid_token"');
  });
});

describe('the consent form', () => {
  it('names the client and the scopes, and may not be framed', async () => {
    const browser = new Browser();
    const consentUrl = await browser.follow(authorizationUrl());
    const page = await browser.request(consentUrl);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('Negative tests');
    expect(html).toMatch(/<strong>read<\/strong>: read valuations/);
    expect(html).toMatch(/<strong>underwrite<\/strong>: run underwriting tools/);
  });

  it('refuses a post without the form token, with a wrong one, or from another origin: 403 csrf_rejected', async () => {
    const browser = new Browser();
    const form = await openConsent(browser, authorizationUrl());
    for (const f of [{ ...form, csrf: '' }, { ...form, csrf: form.csrf.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }]) {
      const res = await submitConsent(browser, f, { decision: 'approve', owner_key: ownerKey });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('csrf_rejected');
    }
    const foreign = await browser.request(form.action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, body: new URLSearchParams({ csrf: form.csrf, decision: 'approve', owner_key: ownerKey }).toString() });
    expect(foreign.status).toBe(403);
    // The genuine form still works afterwards.
    expect((await submitConsent(browser, form, { decision: 'approve', owner_key: ownerKey })).status).toBe(303);
  });

  it('re-asks (401) when the owner key is not an active key', async () => {
    const browser = new Browser();
    const form = await openConsent(browser, authorizationUrl());
    const res = await submitConsent(browser, form, { decision: 'approve', owner_key: 'avm_000000000000_nope' });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('not an active API key');
  });
});

describe('canonical paths', () => {
  it('serves every new path in one spelling only: trailing slash and case variants are 404 not_found', async () => {
    const browser = new Browser();
    const consentUrl = await browser.follow(authorizationUrl());
    const variants = ['/oauth/token/', '/OAuth/token', '/.well-known/oauth-authorization-server/', '/.well-known/OAUTH-authorization-server', '/oauth/authorize/', '/Oauth/authorize', `${consentUrl.pathname}/`, consentUrl.pathname.replace('/oauth/', '/OAUTH/')];
    for (const p of variants) {
      const res = await browser.request(`${service.url}${p}`, p.includes('token') ? { method: 'POST' } : {});
      expect(res.status, p).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code, p).toBe('not_found');
    }
    expect((await fetch(`${service.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });
});

describe('Client ID Metadata Documents', () => {
  it('are advertised, and a client id URL resolving to a non-public address is not fetched (invalid_client)', async () => {
    const meta = (await (await fetch(`${service.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta.client_id_metadata_document_supported).toBe(true);
    const res = await new Browser().request(authorizationUrl({ client_id: 'https://127.0.0.1/client.json' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client', error_description: 'client_id metadata document fetch not allowed' });
  });
});
