// Runs the fuzz cases of one door against a running service and tallies the verdicts. Shared by the bench
// (`npm run bench -- fuzz`, thousands of cases) and the CI test (test/http/fuzz.test.ts, a few hundred).
import fc from 'fast-check';
import { canonicalPath } from '../../src/http/middleware/canonical-path.js';
import { mcpCase, restCase, type FuzzCallers, type FuzzSessions } from './cases.js';
import { send, type FuzzRequest } from './http-client.js';
import { judgeMcp, judgeRest } from './judge.js';
import type { FuzzPools } from './values.js';

export type FuzzTarget = { port: number; callers: FuzzCallers; sessions: FuzzSessions; pools: FuzzPools };
export type Door = 'rest' | 'mcp';
export type FuzzFailure = { request: string; why: string };
export type FuzzStats = { door: Door; cases: number; seed: number; ms: number; statuses: Record<string, number>; outcomes: Record<string, number>; failure_count: number; failures: FuzzFailure[] };

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PROTOCOL = '2025-11-25';

async function rpc(port: number, headers: Record<string, string>, message: unknown): Promise<{ sessionId?: string; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
  const text = await res.text();
  // A JSON body, or server-sent events whose data line carries the answer.
  const json = (res.headers.get('content-type') ?? '').startsWith('text/event-stream') ? text.split('\n').find((l) => l.startsWith('data:'))?.slice(5) : text;
  return { sessionId: res.headers.get('mcp-session-id') ?? undefined, body: json ? JSON.parse(json) : null };
}

/**
 * The legacy handshake for a caller (initialize, then notifications/initialized); the session id if the server handed
 * one out (this server serves both eras without sessions, so none), else null.
 */
async function openSession(port: number, authorization: string | undefined): Promise<string | null> {
  const headers: Record<string, string> = { ...MCP_HEADERS, ...(authorization ? { authorization } : {}) };
  const init = await rpc(port, headers, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } } });
  const session: Record<string, string> = init.sessionId ? { 'mcp-session-id': init.sessionId } : {};
  await rpc(port, { ...headers, ...session, 'mcp-protocol-version': PROTOCOL }, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return init.sessionId ?? null;
}

/** Owner A's state, whose ids the other callers then aim at. */
const OWNER_A_WRITES = [
  ['save_favorite_property', { property_id: 'fuzz-fav-a', payload: { note: 'owner a' } }],
  ['update_underwriting_preset', { id: 'fuzz-preset-a', name: 'owner a', assumptions: {} }],
  ['create_strategy_profile', { id: 'fuzz-profile-a', name: 'owner a', strategy: 'brrrr', min_percentile: 50, max_price: 500_000, min_confidence: 40, bbox: [-87.9, 41.7, -87.5, 42.0], criteria: { telegram_chat_id: '1' }, channels: { telegram: true } }],
  ['add_note', { property_id: 'fuzz-fav-a', body: 'owner a' }],
] as const;

/**
 * Mints the callers (anonymous, read, underwrite, two state owners, a rejected key, the operator secret), opens an MCP
 * session for each caller the door admits, writes owner A's state, and collects ids and addresses the cases reuse.
 */
export async function prepareTarget(o: { port: number; mint: (scopes: string[]) => Promise<string>; operatorSecret: string }): Promise<FuzzTarget> {
  const bearer = (t: string): string => `Bearer ${t}`;
  const callers: FuzzCallers = {
    anonymous: undefined,
    reader: bearer(await o.mint(['read'])),
    underwriter: bearer(await o.mint(['read', 'underwrite'])),
    owner_a: bearer(await o.mint(['read', 'underwrite', 'write-state', 'webhooks'])),
    owner_b: bearer(await o.mint(['read', 'underwrite', 'write-state', 'webhooks'])),
    rejected: 'Bearer avm_not_a_real_key_0000000000',
    operator: bearer(o.operatorSecret),
  };
  const sessions: FuzzSessions = {};
  for (const [name, auth] of Object.entries(callers)) {
    const sid = await openSession(o.port, auth);
    if (sid) sessions[name] = sid;
  }
  const ownerA = { ...MCP_HEADERS, authorization: callers.owner_a!, ...(sessions.owner_a ? { 'mcp-session-id': sessions.owner_a } : {}), 'mcp-protocol-version': PROTOCOL };
  for (const [i, [name, args]] of OWNER_A_WRITES.entries()) await rpc(o.port, ownerA, { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: args } });
  const listings = (await (await fetch(`http://127.0.0.1:${o.port}/api/listings/chicago`)).json()) as { listings?: Array<Record<string, unknown>> };
  const rows = (listings.listings ?? []).slice(0, 8);
  const ids = ['fuzz-fav-a', 'fuzz-preset-a', 'fuzz-profile-a', ...rows.flatMap((r) => Object.entries(r).filter(([k, v]) => k.endsWith('id') && typeof v === 'string').map(([, v]) => v as string))];
  const addresses = rows.map((r) => r.address).filter((a): a is string => typeof a === 'string');
  return { port: o.port, callers, sessions, pools: { ids, addresses } };
}

const describe = (r: FuzzRequest): string => `${r.method} ${r.path.slice(0, 160)} ${JSON.stringify({ ...r.headers, authorization: r.headers.authorization ? '…' : undefined })} ${(r.body ?? '').slice(0, 300)}`;
const pathOf = (p: string): string => p.split('?')[0];
const bump = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

/** Runs `numRuns` generated cases of one door in turn (seeded, so a failure can be replayed) and tallies them. */
export async function runFuzz(target: FuzzTarget, door: Door, numRuns: number, seed: number): Promise<FuzzStats> {
  const arb = door === 'rest' ? restCase(target.port, target.callers, target.pools) : mcpCase(target.port, target.callers, target.sessions, target.pools);
  const cases = fc.sample(arb, { numRuns, seed });
  const stats: FuzzStats = { door, cases: cases.length, seed, ms: 0, statuses: {}, outcomes: {}, failure_count: 0, failures: [] };
  const t0 = performance.now();
  for (const req of cases) {
    const reply = await send(target.port, req);
    const verdict = door === 'rest' ? judgeRest(reply, req.method, canonicalPath(pathOf(req.path))) : judgeMcp(reply);
    bump(stats.statuses, reply.answered ? String(reply.status) : 'no answer');
    if (verdict.ok) bump(stats.outcomes, verdict.kind);
    else {
      stats.failure_count++;
      if (stats.failures.length < 20) stats.failures.push({ request: describe(req), why: verdict.why });
    }
  }
  stats.ms = Math.round(performance.now() - t0);
  stats.outcomes = Object.fromEntries(Object.entries(stats.outcomes).sort((a, b) => b[1] - a[1]));
  return stats;
}
