// The fuzz cases of the two doors as fast-check arbitraries. REST: every served path in many spellings (case,
// trailing and doubled slashes, %2F and other escapes, dot segments), methods, callers, Host/Origin, query strings
// and JSON bodies from the operation's schema, mutated. MCP: JSON-RPC tools/call of every tool with mutated
// arguments, plus malformed JSON-RPC, from each caller, at the 2025 revisions (legacy lane) and at 2026-07-28 with its
// per-request `_meta` envelope and Mcp-Method header (modern lane).
import fc from 'fast-check';
import { toJson } from '../../src/contracts/manifest.js';
import { OPERATIONS, toolEntries, type Operation } from '../../src/contracts/operations.js';
import type { FuzzRequest } from './http-client.js';
import { hostile, mutated, plausible, toJsonText, type FuzzPools } from './values.js';

/** Callers by name → their Authorization header value (absent: anonymous). */
export type FuzzCallers = Record<string, string | undefined>;

const REST_OPS = OPERATIONS.filter((o) => o.rest);
const SERVED = ['/mcp', ...new Set(REST_OPS.map((o) => o.rest!.path))];
const UNSERVED = ['/', '/api', '/api/me', '/api/admin', '/favicon.ico', '/api/state', '/api/deals', '/mcp/v2', '/.env'];
const PATHS = [...SERVED, ...UNSERVED];
const METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'];
/** Most cases use the caller a real client would, so they reach the handlers; the rest probe the guards. */
const CALLER_WEIGHTS: Readonly<Record<string, number>> = { anonymous: 2, reader: 2, underwriter: 2, owner_a: 2, owner_b: 3, rejected: 1, operator: 1 };

/** `usual` nine times in ten, else one of `odd`. */
const mostly = <T>(usual: T, ...odd: T[]): fc.Arbitrary<T> => fc.oneof({ weight: 9, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });

function callerName(callers: FuzzCallers): fc.Arbitrary<string> {
  return fc.oneof(...Object.keys(callers).map((name) => ({ weight: CALLER_WEIGHTS[name] ?? 1, arbitrary: fc.constant(name) })));
}

const upperSome = (p: string, n: number): string => [...p].map((c, i) => ((i * 7 + n) % 3 === 0 ? c.toUpperCase() : c)).join('');
const encodeOne = (p: string, n: number): string => {
  const i = 1 + (n % Math.max(1, p.length - 1));
  return `${p.slice(0, i)}%${p.charCodeAt(i).toString(16).padStart(2, '0')}${p.slice(i + 1)}`;
};

/** A path as written, or re-spelled so that it names the same route in a way the router must not accept. */
export const pathSpelling: fc.Arbitrary<string> = fc.tuple(fc.constantFrom(...PATHS), fc.nat(), fc.nat({ max: 11 })).map(([p, n, how]) => respell(p, n, how)).map((p) => (p.startsWith('/') ? p : `/${p}`));

/** Spelling `how` of path `p` (`n` picks where); a request target must still start with `/` (else Node answers 400). */
function respell(p: string, n: number, how: number): string {
  const slash = p.lastIndexOf('/');
  switch (how) {
    case 0: return upperSome(p, n);
    case 1: return p.toUpperCase();
    case 2: return `${p}/`;
    case 3: return `/${p}`;
    case 4: return p.replace(/\//g, '//');
    case 5: return p.replace(/\/(?=[^/]*$)/, '%2F');
    case 6: return encodeOne(p, n);
    case 7: return `${p.slice(0, slash)}/.${p.slice(slash)}`;
    case 8: return `${p.slice(0, slash)}/x/..${p.slice(slash)}`;
    case 9: return `${p}/%2e%2e/${p.slice(slash + 1)}`;
    case 10: return `${p}%00`;
    default: return p;
  }
}

function inputSchema(op: Operation): Record<string, unknown> {
  return toJson(op.input, 'input');
}

/** Query text for an operation: its own parameters with plausible or hostile values, some duplicated or extra. */
function queryFor(op: Operation | undefined, pools: FuzzPools): fc.Arbitrary<string> {
  const params = op ? (plausible(inputSchema(op) as never, pools) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({});
  const text = (v: unknown): string => (typeof v === 'string' ? v : toJsonText(v));
  return fc.tuple(mutated(params, pools), fc.option(fc.tuple(fc.string({ maxLength: 10 }), hostile(pools)), { nil: undefined })).map(([q, extra]) => {
    const entries = Object.entries(q && typeof q === 'object' && !Array.isArray(q) ? q : { q });
    if (extra) entries.push([extra[0], extra[1]]);
    // Node refuses a request line over its 16 KiB header limit (a bare 431) before any code of ours runs: keep under it.
    return new URLSearchParams(entries.map(([k, v]): [string, string] => [k, text(v)])).toString().slice(0, 8_000);
  });
}

function bodyFor(op: Operation | undefined, pools: FuzzPools): fc.Arbitrary<string | undefined> {
  const json = op ? mutated(plausible(inputSchema(op) as never, pools), pools) : hostile(pools);
  return fc.oneof(
    { weight: 8, arbitrary: json.map(toJsonText) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, '', '{', '{"a":1,}', 'null', '[]', '\ufeff{}', '{"__proto__":{"x":1}}', '{"a":1e999}') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  );
}

const HEADERS_CT = mostly<string | undefined>('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', undefined);

function commonHeaders(port: number, callers: FuzzCallers): fc.Arbitrary<Record<string, string>> {
  const host = mostly(`127.0.0.1:${port}`, `localhost:${port}`, 'evil.example', `127.0.0.1:${port + 1}`);
  const origin = mostly<string | undefined>(undefined, `http://127.0.0.1:${port}`, 'http://evil.example', 'null');
  return fc.record({ host, origin, caller: callerName(callers), ct: HEADERS_CT }).map(({ host: h, origin: o, caller, ct }) => {
    const out: Record<string, string> = { host: h };
    if (o) out.origin = o;
    if (callers[caller]) out.authorization = callers[caller]!;
    if (ct) out['content-type'] = ct;
    return out;
  });
}

/**
 * One REST request: a served path (seven in ten as written, else re-spelled or unserved), mostly its operation's own method, a
 * caller, and the query or body that operation takes.
 */
export function restCase(port: number, callers: FuzzCallers, pools: FuzzPools): fc.Arbitrary<FuzzRequest> {
  const path = fc.oneof({ weight: 14, arbitrary: fc.constantFrom(...SERVED) }, { weight: 5, arbitrary: pathSpelling }, { weight: 1, arbitrary: fc.constantFrom(...UNSERVED) });
  return fc.tuple(path, fc.nat({ max: 3 }), fc.constantFrom(...METHODS), commonHeaders(port, callers)).chain(([p, pick, other, headers]) => {
    const op = REST_OPS.find((o) => p.toLowerCase().replace(/\/+$/, '') === o.rest!.path) ?? undefined;
    const method = pick < 3 ? (op?.rest!.method ?? 'GET') : other;
    return fc.tuple(queryFor(op, pools), method === 'POST' || method === 'PUT' || method === 'PATCH' ? bodyFor(op, pools) : fc.constant(undefined)).map(([query, body]) => ({
      method, path: query ? `${p}?${query}` : p, headers, body,
    }));
  });
}

const TOOLS = toolEntries();

/** The arguments of one tools/call: plausible for the named tool, then mutated. */
function toolCall(pools: FuzzPools): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...TOOLS).chain((t) => mutated(plausible(inputSchema(t.op) as never, pools), pools).map((args) => ({ name: t.name, arguments: args }))) },
    { weight: 1, arbitrary: fc.record({ name: fc.oneof(fc.string({ maxLength: 30 }), hostile(pools)), arguments: hostile(pools) }) },
  );
}

/** A JSON-RPC message: mostly tools/call, some other methods and malformed envelopes. */
function rpcMessage(pools: FuzzPools): fc.Arbitrary<unknown> {
  const id = fc.oneof(fc.nat(), fc.string({ maxLength: 8 }));
  return fc.oneof(
    { weight: 16, arbitrary: fc.tuple(id, toolCall(pools)).map(([i, params]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params })) },
    { weight: 1, arbitrary: id.map((i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })) },
    { weight: 1, arbitrary: fc.tuple(id, fc.constantFrom('resources/list', 'prompts/get', 'ping', 'nope', 'server/discover', ''), hostile(pools)).map(([i, method, params]) => ({ jsonrpc: '2.0', id: i, method, params })) },
    { weight: 1, arbitrary: fc.tuple(hostile(pools), hostile(pools)).map(([i, params]) => ({ jsonrpc: '1.0', id: i, method: 'tools/call', params })) },
    { weight: 1, arbitrary: fc.tuple(toolCall(pools), toolCall(pools)).map(([a, b]) => [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: a }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: b }]) },
  );
}

/** Sessions by caller name, for a server that hands out Mcp-Session-Id (this one serves both eras without sessions). */
export type FuzzSessions = Record<string, string>;

const MODERN_REVISION = '2026-07-28';

/** A request of revision 2026-07-28: the version, client info and capabilities ride in each message's `_meta`. */
function withModernEnvelope(bodyText: string, headers: Record<string, string>): string {
  let msg: unknown;
  try {
    msg = JSON.parse(bodyText);
  } catch {
    return bodyText;
  }
  const m = msg as { method?: unknown; params?: unknown };
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg) || typeof m.method !== 'string') return bodyText;
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) return bodyText;
  headers['mcp-method'] = m.method;
  const params = (m.params ?? {}) as Record<string, unknown>;
  if (m.method === 'tools/call' && typeof params.name === 'string' && /^[\x21-\x7e]{0,256}$/.test(params.name)) headers['mcp-name'] = params.name;
  const _meta = { 'io.modelcontextprotocol/protocolVersion': MODERN_REVISION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '0' } };
  try {
    return JSON.stringify({ ...m, params: { ...params, _meta } });
  } catch {
    return bodyText; // nesting thousands deep (RawJson) parses but overflows JSON.stringify's recursion: sent as generated
  }
}

export function mcpCase(port: number, callers: FuzzCallers, sessions: FuzzSessions, pools: FuzzPools): fc.Arbitrary<FuzzRequest> {
  const names = Object.keys(callers);
  const body = fc.oneof({ weight: 19, arbitrary: rpcMessage(pools).map(toJsonText) }, { weight: 1, arbitrary: bodyFor(undefined, pools).map((b) => b ?? '') });
  const accept = mostly('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*');
  const version = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom('2025-11-25', MODERN_REVISION) },
    { weight: 1, arbitrary: fc.constantFrom<string | undefined>('2025-06-18', undefined, '1999-01-01', 'x'.repeat(300)) },
  );
  const path = fc.oneof({ weight: 19, arbitrary: fc.constant('/mcp') }, { weight: 1, arbitrary: pathSpelling.filter((p) => p.toLowerCase().includes('mcp')) });
  return fc.record({ caller: callerName(callers), other: fc.constantFrom(...names, 'none', 'bogus'), own: fc.nat({ max: 9 }), body, accept, version, ct: HEADERS_CT, path })
    .map(({ caller, other, own, body: b, accept: a, version: v, ct, path: p }) => {
      const sessionOf = own < 9 ? caller : other; // mostly the caller's own session; else another's, none or a bogus id
      const headers: Record<string, string> = { host: `127.0.0.1:${port}`, accept: a };
      if (ct) headers['content-type'] = ct;
      if (callers[caller]) headers.authorization = callers[caller]!;
      const sid = sessionOf === 'bogus' ? 'no-such-session' : sessions[sessionOf];
      if (sid) headers['mcp-session-id'] = sid;
      if (v) headers['mcp-protocol-version'] = v;
      return { method: 'POST', path: p, headers, body: v === MODERN_REVISION ? withModernEnvelope(b, headers) : b };
    });
}
