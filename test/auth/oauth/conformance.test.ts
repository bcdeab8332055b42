// The MCP conformance suite's authorization-server scenarios (authorization-server-metadata-endpoint,
// authorization-code-grant) against this service, at both protocol revisions it speaks. The suite drives the
// authorization request and waits for the browser; this test plays the browser (owner approves on the consent page)
// and delivers the redirect to the suite's callback server. Runs only when MCP_CONFORMANCE_JS names the suite's
// dist/index.js (@modelcontextprotocol/conformance 0.2.0-alpha.12 or later: 0.1.x has no `authorization` command),
// so the ordinary test run needs no network.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceHandle } from '../../../src/server.js';
import { mintKey, startDoors } from '../../mcp/support.js';
import { Browser, consentAndReturn } from './support.js';

const SUITE = process.env.MCP_CONFORMANCE_JS;
const CALLBACK_PORT = 3917;

let service: ServiceHandle;
let ownerKey: string;
beforeAll(async () => {
  if (!SUITE) return;
  service = await startDoors();
  ownerKey = (await mintKey(service, ['read'])).token;
});
afterAll(async () => {
  await service?.close();
});

/** The suite's checks, and how it ended (exit code, stdout): what a failure message needs when it wrote no checks. */
async function runSuite(specVersion: string): Promise<{ checks: Array<{ id: string; status: string; errorMessage?: string }>; ended: string }> {
  const reg = await fetch(`${service.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'conformance', redirect_uris: [`http://127.0.0.1:${CALLBACK_PORT}/callback`], token_endpoint_auth_method: 'none' }) });
  const clientId = ((await reg.json()) as { client_id: string }).client_id;
  return runSuiteAs(clientId, ['--spec-version', specVersion]);
}

/**
 * The suite's command line, every value joined to its option. The client id is the provider's nanoid, whose alphabet
 * has '-': given as an argument of its own, an id like '-Vx3…' is taken by the suite's top-level parser (commander 14,
 * which does not know the subcommand's options) as its version flag, and the suite prints its version, exits 0 and
 * runs nothing. About 1 id in 4,096 starts with '-V'; CI met one.
 */
function suiteArgs(clientId: string, outDir: string, extra: string[]): string[] {
  const options = { url: service.url, 'client-id': clientId, resource: `${service.url}/mcp`, port: String(CALLBACK_PORT), 'output-dir': outDir };
  return [SUITE!, 'authorization', ...Object.entries(options).map(([k, v]) => `--${k}=${v}`), ...extra];
}

async function runSuiteAs(clientId: string, extra: string[]): Promise<{ checks: Array<{ id: string; status: string; errorMessage?: string }>; ended: string }> {
  const outDir = mkdtempSync(join(tmpdir(), 'avm-conformance-'));
  const child = spawn(process.execPath, suiteArgs(clientId, outDir, extra), { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let browsing: Promise<unknown> | null = null;
  child.stdout.on('data', (d) => {
    out += d;
    const m = /^(http:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(out);
    if (m && !browsing) browsing = consentAndReturn(new Browser(), new URL(m[1]), { decision: 'approve', owner_key: ownerKey }).then((back) => fetch(back));
  });
  const code = await new Promise((resolve) => child.on('close', (c, sig) => resolve(c ?? sig)));
  await browsing;
  const checks = readdirSync(outDir).flatMap((d) => JSON.parse(readFileSync(join(outDir, d, 'checks.json'), 'utf8')) as Array<{ id: string; status: string; errorMessage?: string }>);
  return { checks, ended: `suite exit ${code}, stdout: ${out.slice(-2000)}` };
}

describe.skipIf(!SUITE)('MCP conformance: authorization server scenarios', () => {
  it.each(['2025-11-25', '2026-07-28'])('pass at revision %s', async (spec) => {
    const { checks, ended } = await runSuite(spec);
    expect(checks.map((c) => c.id).sort(), ended).toEqual(expect.arrayContaining(['authorization-code-grant']));
    expect(checks.filter((c) => c.status !== 'SUCCESS'), JSON.stringify(checks)).toEqual([]);
  }, 60_000);

  it('runs its scenarios for a client id that starts with a dash', async () => {
    const { checks, ended } = await runSuiteAs('-Vx3', ['--scenario', 'authorization-server-metadata-endpoint']);
    expect(checks.map((c) => c.id), ended).toContain('authorization-server-metadata');
  }, 60_000);
});
