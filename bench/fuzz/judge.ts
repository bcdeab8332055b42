// What the fuzz suite accepts from each door. Never: a 5xx, no answer, a 4xx without a taxonomy code (the REST door's
// one error body, whose code's status is the HTTP status), or, inside a 200 JSON-RPC answer, an internal error, an
// output-validation failure or a tool error whose taxonomy code is a 5xx. The MCP transport's own protocol refusals
// (a JSON-RPC error object on a 4xx: no session, unacceptable Accept header) are the protocol's shape there.
import { ErrorBodySchema } from '../../src/contracts/error-body.js';
import { ERROR_CODES } from '../../src/errors/codes.js';
import type { FuzzReply } from './http-client.js';

export type Verdict = { ok: true; kind: string } | { ok: false; why: string };

const JSON_RPC_INTERNAL = -32603;
const SDK_TOOL_ERROR = /^MCP error (-32\d{3}):/;
/** SDK v2's refusal of arguments failing the tool's input schema, an `isError` result without a JSON-RPC code. */
const SDK_INPUT_REFUSAL = /^Input validation error: /;

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A taxonomy error body whose code's status is `status`, or why not. */
function taxonomyProblem(body: unknown, status: number): string | null {
  const parsed = ErrorBodySchema.safeParse(body);
  if (!parsed.success) return 'not a taxonomy error body';
  const expected = ERROR_CODES[parsed.data.error.code].status;
  return expected === status ? null : `code ${parsed.data.error.code} is ${expected}, answered ${status}`;
}

function transportRefusal(body: unknown): boolean {
  const e = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof e?.code === 'number' && typeof e.message === 'string';
}

export function judgeRest(reply: FuzzReply, method: string, canonicalPath: string | null): Verdict {
  if (!reply.answered) return { ok: false, why: reply.error };
  if (reply.status >= 500) return { ok: false, why: `HTTP ${reply.status}` };
  if (reply.status < 400) return { ok: true, kind: `${reply.status}` };
  if (method === 'HEAD') return { ok: true, kind: `${reply.status} (HEAD, no body)` };
  const body = parse(reply.text);
  const problem = taxonomyProblem(body, reply.status);
  if (!problem) return { ok: true, kind: `${reply.status} ${(body as { error: { code: string } }).error.code}` };
  if (canonicalPath === '/mcp' && transportRefusal(body)) return { ok: true, kind: `${reply.status} mcp transport refusal` };
  return { ok: false, why: `HTTP ${reply.status}: ${problem}: ${reply.text.slice(0, 200)}` };
}

/** The JSON-RPC messages of a 200 answer, whether sent as JSON or as server-sent events. */
function messagesOf(reply: { contentType: string; text: string }): unknown[] {
  if (reply.contentType.startsWith('text/event-stream')) {
    return reply.text.split('\n').filter((l) => l.startsWith('data:')).map((l) => parse(l.slice(5).trim()));
  }
  const body = parse(reply.text);
  return Array.isArray(body) ? body : body === undefined ? [] : [body];
}

function judgeMessage(m: unknown): Verdict {
  const msg = m as { error?: { code?: number; message?: string }; result?: { isError?: boolean; content?: Array<{ text?: string }> } };
  if (msg?.error) {
    if (msg.error.code === JSON_RPC_INTERNAL) return { ok: false, why: `JSON-RPC internal error: ${msg.error.message}` };
    if (/output validation/i.test(msg.error.message ?? '')) return { ok: false, why: `answer broke its own output schema: ${msg.error.message}` };
    return { ok: true, kind: `jsonrpc error ${msg.error.code}` };
  }
  if (!msg?.result?.isError) return { ok: true, kind: 'tool result' };
  const text = msg.result.content?.[0]?.text ?? '';
  if (/output validation/i.test(text)) return { ok: false, why: `answer broke its own output schema: ${text.slice(0, 200)}` };
  const parsed = ErrorBodySchema.safeParse(parse(text));
  if (!parsed.success) {
    // The SDK's own refusals: v2 answers arguments failing the tool's input schema as "Input validation error: ...";
    // others (unknown tool) come as "MCP error -326xx: ...".
    if (SDK_INPUT_REFUSAL.test(text)) return { ok: true, kind: 'tool error (SDK input validation)' };
    const sdk = SDK_TOOL_ERROR.exec(text);
    if (sdk && Number(sdk[1]) !== JSON_RPC_INTERNAL) return { ok: true, kind: `tool error (SDK ${sdk[1]})` };
    return { ok: false, why: `tool error without a taxonomy code: ${text.slice(0, 200)}` };
  }
  const status = ERROR_CODES[parsed.data.error.code].status;
  if (status >= 500) return { ok: false, why: `tool error ${parsed.data.error.code} (${status})` };
  return { ok: true, kind: `tool error ${parsed.data.error.code}` };
}

export function judgeMcp(reply: FuzzReply): Verdict {
  if (!reply.answered) return { ok: false, why: reply.error };
  if (reply.status >= 500) return { ok: false, why: `HTTP ${reply.status}: ${reply.text.slice(0, 200)}` };
  if (reply.status >= 400) {
    const body = parse(reply.text);
    if (!taxonomyProblem(body, reply.status)) return { ok: true, kind: `${reply.status} ${(body as { error: { code: string } }).error.code}` };
    if (transportRefusal(body)) return { ok: true, kind: `${reply.status} mcp transport refusal` };
    return { ok: false, why: `HTTP ${reply.status} without a taxonomy code: ${reply.text.slice(0, 200)}` };
  }
  const verdicts = messagesOf(reply).map(judgeMessage);
  const bad = verdicts.find((v) => !v.ok);
  if (bad) return bad;
  return { ok: true, kind: verdicts.length === 0 ? `${reply.status} (no message)` : verdicts.map((v) => (v as { kind: string }).kind).join(' + ') };
}
