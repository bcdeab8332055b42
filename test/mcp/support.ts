// Shared fixture of the door tests: one service on loopback over the small corpus, keys minted per scope set, and
// helpers for REST calls and MCP clients over streamable HTTP: the v1 SDK Client (a 2025-era host, protocol 2025-11-25,
// served on the legacy lane) and the v2 SDK Client pinned to revision 2026-07-28 (the modern lane).
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLimiter, type Limiter } from '../../src/auth/limiter.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';

export const OPERATOR_SECRET = 'operator-secret-for-tests-0123456789';

/** A limiter whose anonymous quota does not get in the way of tests that are not about rate limits. */
export function roomyLimiter(): Limiter {
  return createLimiter({ anonLimit: 1_000_000 });
}

/** Private webhook targets are allowed so a loopback IP literal passes the SSRF guard without DNS. */
export async function startDoors(opts: { limiter?: Limiter } = {}): Promise<ServiceHandle> {
  const dataDir = await smallCorpusDir();
  return startService(testConfig(dataDir, { WRITE_SECRET: OPERATOR_SECRET, AVM_ALLOW_PRIVATE_WEBHOOKS: 'true' }), { installSignalHandlers: false, limiter: opts.limiter ?? roomyLimiter() });
}

export async function mintKey(service: ServiceHandle, scopes: string[], rpmLimit?: number): Promise<{ id: string; token: string }> {
  const issued = await service.svc.backend!.keys.createKey({ scopes, rpmLimit });
  return { id: issued.key.id, token: issued.plaintext };
}

export async function revokeKey(service: ServiceHandle, id: string): Promise<void> {
  await service.svc.backend!.keys.revokeKey(id);
}

export function bearer(token: string | null): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export const MODERN_REVISION = '2026-07-28';

/** A 2025-era client (v1 SDK, `initialize` handshake at protocol 2025-11-25): the legacy lane. */
export async function mcpClient(service: ServiceHandle, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'door-tests', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** A client of the current revision (v2 SDK, `server/discover` then stateless requests, pinned to 2026-07-28). */
export async function modernMcpClient(service: ServiceHandle, headers: Record<string, string> = {}): Promise<ModernClient> {
  const client = new ModernClient({ name: 'door-tests', version: '0.0.0' }, { versionNegotiation: { mode: { pin: MODERN_REVISION } } });
  await client.connect(new ModernTransport(new URL(`${service.url}/mcp`), { requestInit: { headers } }));
  return client;
}
