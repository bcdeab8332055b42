// Issue 16 item 2, the page: GET /keys (sign-in form, strict CSP, not framable, a form-token cookie) and POST /keys
// (every action as a browser form post): sign in, create (the secret shown once), rotate, revoke, audit records;
// CSRF refusals (no cookie, a token not made for the cookie, a foreign Origin) change nothing; another owner's key id
// is 404 on the page too; other spellings of the path are 404.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src/server.js';
import { Browser } from '../auth/oauth/support.js';
import { mintKey, startDoors } from '../mcp/support.js';

let service: ServiceHandle;
let owner: { id: string; token: string };
let other: { id: string; token: string };
beforeAll(async () => {
  service = await startDoors();
  owner = await mintKey(service, ['read', 'underwrite']);
  other = await mintKey(service, ['read']);
});
afterAll(async () => {
  await service?.close();
});

const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)![1];
const unescape = (s: string): string => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/** A browser on the page: GET /keys, then posts built from the last page's token, as a form of that page would. */
async function openPage(): Promise<{ browser: Browser; html: string }> {
  const browser = new Browser();
  const res = await browser.request(`${service.url}/keys`);
  expect(res.status).toBe(200);
  return { browser, html: await res.text() };
}
async function submit(b: { browser: Browser; html: string }, fields: Record<string, string | string[]>, over: { origin?: string; csrf?: string } = {}): Promise<{ status: number; html: string }> {
  const body = new URLSearchParams();
  body.set('csrf', over.csrf ?? unescape(csrfOf(b.html)));
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) body.append(k, x);
  const res = await b.browser.request(`${service.url}/keys/actions`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: over.origin ?? service.url }, body: body.toString() });
  const html = await res.text();
  if ((res.headers.get('content-type') ?? '').startsWith('text/html')) b.html = html;
  return { status: res.status, html };
}
const secretOf = (html: string): string | undefined => /<code>(avm_[0-9a-f]{12}_[A-Za-z0-9_-]{43})<\/code>/.exec(html)?.[1];
const api = (token: string) => fetch(`${service.url}/api/me/keys`, { headers: { authorization: `Bearer ${token}` } });

describe('GET /keys', () => {
  it('is a sign-in form without script, not framable, with a form-token cookie (HttpOnly, SameSite=Strict, Path=/keys)', async () => {
    const res = await fetch(`${service.url}/keys`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('set-cookie')).toMatch(/^avm_keys_csrf=[A-Za-z0-9_-]{22}; Path=\/keys; HttpOnly; SameSite=Strict$/);
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('name="owner_key"');
    expect(csrfOf(html)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is served at /keys only: other spellings are 404', async () => {
    for (const path of ['/keys/', '/Keys', '/KEYS', '/keys//']) expect((await fetch(`${service.url}${path}`)).status, path).toBe(404);
  });

  it('answers 405 to a POST, as its OpenAPI entry (GET only) says; the forms post to /keys/actions, which answers 405 to a GET', async () => {
    const post = await fetch(`${service.url}/keys`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(((await post.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
    expect((await fetch(`${service.url}/keys/actions`)).status).toBe(405);
    expect(await (await fetch(`${service.url}/keys`)).text()).toContain('action="/keys/actions"');
  });
});

describe('POST /keys', () => {
  it('signs in, creates a key (secret shown once), rotates and revokes it, and shows the owner\'s audit records', async () => {
    const page = await openPage();
    const signedIn = await submit(page, { action: 'list', owner_key: owner.token });
    expect(signedIn.status).toBe(200);
    expect(signedIn.html).toContain(`<code>${owner.id}</code>`);
    expect(signedIn.html).not.toContain(other.id);

    const created = await submit(page, { action: 'create', owner_key: owner.token, scopes: ['read', 'underwrite'], label: 'page key' });
    expect(created.status).toBe(201);
    const secret = secretOf(created.html)!;
    expect(secret).toBeTruthy();
    expect(created.html).toContain('page key');
    expect((await api(secret)).status).toBe(200);
    const id = secret.slice(4, 16);
    expect(await service.svc.backend!.keys.getKey(id)).toMatchObject({ owner_id: owner.id, scopes: ['read', 'underwrite'], label: 'page key' });
    // listing again shows the key, never its secret
    const again = await submit(page, { action: 'list', owner_key: owner.token });
    expect(again.html).toContain(id);
    expect(again.html).not.toContain(secret);

    const rotated = await submit(page, { action: 'rotate', owner_key: owner.token, key_id: id });
    expect(rotated.status).toBe(201);
    const next = secretOf(rotated.html)!;
    expect(next).not.toBe(secret);
    expect((await api(secret)).status).toBe(401);
    expect((await api(next)).status).toBe(200);

    const revoked = await submit(page, { action: 'revoke', owner_key: owner.token, key_id: next.slice(4, 16) });
    expect(revoked.status).toBe(200);
    expect(revoked.html).toContain('is revoked');
    expect((await api(next)).status).toBe(401);
    // the page's own actions are audited under the owner's key
    await new Promise((f) => setTimeout(f, 400));
    const audited = await submit(page, { action: 'list', owner_key: owner.token });
    expect(audited.html).toContain('keys_page_create');
  });

  it('refuses beyond-scope creation, another owner\'s key id (404, nothing changed) and a wrong owner key (401)', async () => {
    const page = await openPage();
    expect((await submit(page, { action: 'create', owner_key: owner.token, scopes: ['write-state'] })).status).toBe(403);
    expect((await submit(page, { action: 'create', owner_key: owner.token, scopes: ['read'], label: 'x'.repeat(101) })).status).toBe(400);
    const theirs = await submit(page, { action: 'revoke', owner_key: owner.token, key_id: other.id });
    expect(theirs.status).toBe(404);
    expect(theirs.html).toContain('you have no key with id');
    expect((await service.svc.backend!.keys.getKey(other.id))!.revoked_at).toBeNull();
    const wrong = await submit(page, { action: 'list', owner_key: `avm_${randomBytes(6).toString('hex')}_${'A'.repeat(43)}` });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('not an active API key');
  });

  it('refuses a post without the cookie, with a token not made for the cookie, or from another origin (403 csrf_rejected), and changes nothing', async () => {
    const victim = (await service.svc.backend!.keys.createKey({ scopes: ['read'], ownerId: owner.id })).key.id;
    const page = await openPage();
    const token = unescape(csrfOf(page.html));
    const revoke = { action: 'revoke', owner_key: owner.token, key_id: victim };
    const cookieless = { browser: new Browser(), html: page.html };
    const otherPage = await openPage();
    for (const [name, r] of [
      ['no cookie', await submit(cookieless, revoke, { csrf: token })],
      ['token of another page', await submit(otherPage, revoke, { csrf: token })],
      ['forged token', await submit(page, revoke, { csrf: 'A'.repeat(43) })],
      ['foreign origin', await submit(page, revoke, { origin: 'https://evil.example' })],
    ] as const) {
      expect(r.status, name).toBe(403);
      expect(JSON.parse(r.html).error.code, name).toBe('csrf_rejected');
    }
    expect((await service.svc.backend!.keys.getKey(victim))!.revoked_at).toBeNull();
    expect((await submit(page, revoke)).status).toBe(200);
    expect((await service.svc.backend!.keys.getKey(victim))!.revoked_at).not.toBeNull();
  });
});
