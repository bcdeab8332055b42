// Issue 16 item 1 end to end, with the official MCP client's OAuth support (@modelcontextprotocol/client, revision
// 2026-07-28): an underwrite tool answers 401 with the resource metadata; the client discovers the protected resource
// and authorization server metadata, registers (RFC 7591), sends the browser to the authorization URL; the consent
// form is posted as a browser would; the client exchanges the code with its PKCE verifier and the tool succeeds.
// Denied: the client gets access_denied and no token, and still reads keylessly.
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { UnauthorizedError as LegacyUnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../../src/server.js';
import { MODERN_REVISION, mintKey, startDoors } from '../../mcp/support.js';
import { storedKeyRecord } from '../../support/stored-key.js';
import { Browser, consentAndReturn, MemoryOAuthProvider } from './support.js';

let service: ServiceHandle;
let ownerKey: string;
beforeAll(async () => {
  service = await startDoors();
  ownerKey = (await mintKey(service, ['read'])).token; // the operator's owner invitation (README "Sign-in (OAuth)")
});
afterAll(async () => {
  await service?.close();
});

const DEEP_ARGS = { lat: 41.88, lon: -87.7, units: 2 };

async function connect(auth: MemoryOAuthProvider): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { authProvider: auth });
  const client = new Client({ name: 'oauth-e2e', version: '0.0.0' }, { versionNegotiation: { mode: { pin: MODERN_REVISION } } });
  await client.connect(transport);
  return { client, transport };
}

describe('MCP client OAuth sign-in', () => {
  it('401 → discovery → registration → consent approved → code + verifier → deep_underwrite_asset succeeds', async () => {
    const auth = new MemoryOAuthProvider();
    const { client, transport } = await connect(auth); // the handshake is a read: open without a token
    await expect(client.callTool({ name: 'deep_underwrite_asset', arguments: DEEP_ARGS })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(auth.clientInfo?.client_id).toBeTruthy(); // registered by DCR
    const url = auth.authorizationUrl!;
    expect(url.pathname).toBe('/oauth/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${service.url}/mcp`);
    expect(url.searchParams.get('scope')).toBe('read underwrite');

    const callback = await consentAndReturn(new Browser(), url, { decision: 'approve', owner_key: ownerKey });
    expect(`${callback.origin}${callback.pathname}`).toBe('http://127.0.0.1:9/callback');
    expect(callback.searchParams.get('state')).toBe(auth.lastState);
    expect(callback.searchParams.get('iss')).toBe(service.url);
    await transport.finishAuth(callback.searchParams);
    expect(auth.savedTokens).toMatchObject({ token_type: 'Bearer', scope: 'read underwrite' });
    expect(auth.savedTokens?.refresh_token).toBeTruthy();

    const result = (await client.callTool({ name: 'deep_underwrite_asset', arguments: DEEP_ARGS })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent?.assumptions).toMatchObject({ units: 2 });
    await client.close();

    // The approval minted a key owned by the approving owner, stored like any key (hashed), with read + underwrite.
    const listed = (await service.svc.backend!.keys.listKeys()).filter((k) => k.label?.startsWith('oauth: E2E test client'));
    const oauthKeys = await Promise.all(listed.map(async (k) => (await storedKeyRecord(service, k.id)) as { owner_id: string; scopes: string[]; hash: string }));
    expect(oauthKeys).toHaveLength(1);
    expect(oauthKeys[0].scopes).toEqual(['read', 'underwrite']);
    expect(oauthKeys[0].owner_id).toBe(ownerKey.slice(4, 16));
    expect(oauthKeys[0].hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('denied: the client gets access_denied and no token, and still reads keylessly', async () => {
    const auth = new MemoryOAuthProvider();
    const { client } = await connect(auth);
    await expect(client.callTool({ name: 'deep_underwrite_asset', arguments: DEEP_ARGS })).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = await consentAndReturn(new Browser(), auth.authorizationUrl!, { decision: 'deny' });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
    expect(callback.searchParams.get('state')).toBe(auth.lastState);
    expect(callback.searchParams.get('iss')).toBe(service.url);
    expect(auth.savedTokens).toBeUndefined();
    const pulse = (await client.callTool({ name: 'market_pulse', arguments: {} })) as { isError?: boolean };
    expect(pulse.isError ?? false).toBe(false);
    await client.close();
  });

  it('a 2025-era client (v1 SDK, protocol 2025-11-25) signs in the same way and underwrites', async () => {
    const auth = new MemoryOAuthProvider();
    const transport = new LegacyTransport(new URL(`${service.url}/mcp`), { authProvider: auth as never });
    const client = new LegacyClient({ name: 'oauth-e2e-2025', version: '0.0.0' });
    await client.connect(transport);
    await expect(client.callTool({ name: 'deep_underwrite_asset', arguments: DEEP_ARGS })).rejects.toBeInstanceOf(LegacyUnauthorizedError);
    const callback = await consentAndReturn(new Browser(), auth.authorizationUrl!, { decision: 'approve', owner_key: ownerKey });
    expect(callback.searchParams.get('state')).toBe(auth.lastState);
    await transport.finishAuth(callback.searchParams.get('code')!);
    const result = (await client.callTool({ name: 'deep_underwrite_asset', arguments: DEEP_ARGS })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent?.assumptions).toMatchObject({ units: 2 });
    await client.close();
  });
});
