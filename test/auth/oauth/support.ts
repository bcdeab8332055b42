// Shared pieces of the OAuth tests: a cookie-keeping "browser" that follows the authorization flow by hand (GET the
// authorization URL, GET the consent page, POST its form as a browser would, follow the redirects back to the
// client), and an in-memory OAuthClientProvider for the official MCP client (@modelcontextprotocol/client).
import type { OAuthClientMetadata, OAuthClientProvider } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

/** Cookies by name (paths ignored: every request goes to the one service under test). */
export class Browser {
  readonly cookies = new Map<string, string>();

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** GET, expecting a redirect: the absolute Location. */
  async follow(url: string | URL): Promise<URL> {
    const res = await this.request(url);
    expect(res.status, `${url} should redirect: ${res.status} ${await res.clone().text()}`).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(400);
    return new URL(res.headers.get('location')!, url);
  }
}

export type ConsentForm = { action: URL; csrf: string; html: string };

/** Opens the authorization URL, lands on the consent page, and reads its form. */
export async function openConsent(browser: Browser, authorizationUrl: URL): Promise<ConsentForm> {
  const consentUrl = await browser.follow(authorizationUrl);
  expect(consentUrl.pathname).toMatch(/^\/oauth\/consent\/[A-Za-z0-9_-]+$/);
  const page = await browser.request(consentUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(csrf && action).toBeTruthy();
  return { action: new URL(action!, consentUrl), csrf: csrf!, html };
}

/** Posts the consent form as a browser would (urlencoded, same origin). */
export function submitConsent(browser: Browser, form: ConsentForm, fields: Record<string, string>): Promise<Response> {
  return browser.request(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: form.action.origin },
    body: new URLSearchParams({ csrf: form.csrf, ...fields }).toString(),
  });
}

/** Approves (or denies) in the browser and follows the redirects back: the client's callback URL with its query. */
export async function consentAndReturn(browser: Browser, authorizationUrl: URL, fields: Record<string, string>): Promise<URL> {
  const form = await openConsent(browser, authorizationUrl);
  const posted = await submitConsent(browser, form, fields);
  expect(posted.status, await posted.clone().text()).toBe(303);
  const resume = new URL(posted.headers.get('location')!, form.action);
  expect(resume.pathname).toMatch(/^\/oauth\/authorize\/[A-Za-z0-9_-]+$/);
  return browser.follow(resume);
}

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** The MCP client's OAuth state for one test client, in memory; `authorizationUrl` is where it would open a browser. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  clientInfo: Record<string, unknown> | undefined;
  savedTokens: Record<string, unknown> | undefined;
  verifier = '';
  lastState = '';
  authorizationUrl: URL | null = null;

  get redirectUrl(): string {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'E2E test client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  state(): string {
    this.lastState = crypto.randomUUID();
    return this.lastState;
  }
  clientInformation() {
    return this.clientInfo as never;
  }
  saveClientInformation(info: unknown): void {
    this.clientInfo = info as Record<string, unknown>;
  }
  tokens() {
    return this.savedTokens as never;
  }
  saveTokens(tokens: unknown): void {
    this.savedTokens = tokens as Record<string, unknown>;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}
