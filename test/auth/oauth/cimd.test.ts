// Issue 16 item 1, Client ID Metadata Documents (preferred by MCP 2026-07-28): a client whose client_id is an https
// URL serving its metadata signs in end to end (authorize with PKCE → consent form posted → code exchange → a tool
// call with the token), and a document that names another client_id, or a redirect URI it does not list, is refused.
// The document server is https on 127.0.0.1 with a certificate openssl makes here; the service fetches it only
// because the test names the host (AVM_CIMD_PRIVATE_HOSTS) and trusts the certificate (AVM_CIMD_CA_FILE).
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cimdAllowFetch, cimdFetch } from '../../../src/auth/oauth/cimd-fetch.js';
import { loadConfig } from '../../../src/config.js';
import { startService, type ServiceHandle } from '../../../src/server.js';
import { bearer, mintKey, modernMcpClient, OPERATOR_SECRET, roomyLimiter } from '../../mcp/support.js';
import { smallCorpusDir, testConfig } from '../../support/corpus.js';
import { Browser, consentAndReturn, openConsent, REDIRECT_URI } from './support.js';

let dir: string;
let docs: Server;
let docsOrigin: string;
let service: ServiceHandle;
let ownerKey: string;

/** The documents served, by path; each is built from the URL it is served at. */
const DOCUMENTS: Record<string, (self: string) => Record<string, unknown>> = {
  '/client.json': (self) => ({ client_id: self, client_name: 'CIMD test client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
  '/impostor.json': () => ({ client_id: `${docsOrigin}/client.json`, client_name: 'Impostor', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'avm-cimd-'));
  // node:crypto makes keys but not X.509 certificates: openssl (on the machine) makes a self-signed one for 127.0.0.1.
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'pipe' });
  docs = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    const doc = DOCUMENTS[req.url ?? ''];
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc(`${docsOrigin}${req.url}`)));
  });
  await new Promise<void>((ok) => docs.listen(0, '127.0.0.1', ok));
  docsOrigin = `https://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  const config = testConfig(await smallCorpusDir(), { WRITE_SECRET: OPERATOR_SECRET, AVM_CIMD_PRIVATE_HOSTS: '127.0.0.1', AVM_CIMD_CA_FILE: join(dir, 'cert.pem') });
  service = await startService(config, { installSignalHandlers: false, limiter: roomyLimiter() });
  ownerKey = (await mintKey(service, ['read'])).token;
});
afterAll(async () => {
  await service?.close();
  await new Promise((ok) => docs?.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

function authorizationUrl(clientId: string, challenge: string, over: Record<string, string> = {}): URL {
  const u = new URL(`${service.url}/oauth/authorize`);
  const params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'read underwrite', state: 'cimd-1', code_challenge: challenge, code_challenge_method: 'S256', resource: `${service.url}/mcp`, ...over };
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u;
}

describe('Client ID Metadata Documents', () => {
  it('a client identified by its https document URL signs in: consent, code exchange, and an underwrite tool call', async () => {
    const clientId = `${docsOrigin}/client.json`;
    const p = pkce();
    const form = await openConsent(new Browser(), authorizationUrl(clientId, p.challenge));
    expect(form.html).toContain('CIMD test client'); // the consent page names the client from its document

    const back = await consentAndReturn(new Browser(), authorizationUrl(clientId, p.challenge), { decision: 'approve', owner_key: ownerKey });
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('cimd-1');
    expect(back.searchParams.get('iss')).toBe(service.url);
    const code = back.searchParams.get('code');
    expect(code, back.href).toBeTruthy();

    const res = await fetch(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code: code!, code_verifier: p.verifier, redirect_uri: REDIRECT_URI }).toString(),
    });
    const tokens = (await res.json()) as Record<string, string>;
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'read underwrite' });

    const client = await modernMcpClient(service, bearer(tokens.access_token));
    const result = (await client.callTool({ name: 'deep_underwrite_asset', arguments: { lat: 41.88, lon: -87.7, units: 2 } })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    await client.close();
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent?.assumptions).toMatchObject({ units: 2 });
  });

  it('refuses a document whose client_id is not the URL it was fetched from (invalid_client_metadata)', async () => {
    const res = await new Browser().request(authorizationUrl(`${docsOrigin}/impostor.json`, pkce().challenge));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: 'client_id metadata document client_id does not match the expected value' });
  });

  it('refuses a redirect URI the document does not list, without redirecting to it (invalid_redirect_uri)', async () => {
    const res = await new Browser().request(authorizationUrl(`${docsOrigin}/client.json`, pkce().challenge, { redirect_uri: `${REDIRECT_URI}x` }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('fetches only the named hosts: the same documents by another name for the loopback are not fetched', async () => {
    const other = docsOrigin.replace('127.0.0.1', 'localhost');
    const res = await new Browser().request(authorizationUrl(`${other}/client.json`, pkce().challenge));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client', error_description: 'client_id metadata document fetch not allowed' });
  });

  it('exempts no host by default, and trusts the given CA for the named hosts only', async () => {
    expect(loadConfig({}).cimdPrivateHosts).toEqual([]);
    expect(loadConfig({}).cimdCa).toBeNull();
    expect(await cimdAllowFetch({ privateHosts: [], privateCa: null })(null, `${docsOrigin}/client.json`)).toBe(false);
    const url = `${docsOrigin}/client.json`;
    await expect(cimdFetch({ privateHosts: ['127.0.0.1'], privateCa: null })(url, { method: 'GET' })).rejects.toThrow(/self-signed/);
    const ok = await cimdFetch({ privateHosts: ['127.0.0.1'], privateCa: readFileSync(join(dir, 'cert.pem'), 'utf8') })(url, { method: 'GET' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ client_id: url });
  });
});
