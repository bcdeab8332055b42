// The envelopes of the JSON-RPC messages the tool door receives, checked before the MCP SDK sees them. A tools/call
// whose params do not parse: the v1 SDK answered JSON-RPC -32603 "internal error" carrying its zod issues, the MCP
// counterpart of a 500. A batch reusing a request id: the SDKs (v1 and v2) route answers by id, so one of the two is
// never sent (defect 9). Both are the caller's error, refused here whatever the SDK would do: 400 validation_failed.
import { AppError } from '../errors/app-error.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws 400 `validation_failed` unless every tools/call message (alone or in a batch) has params `{name: string, arguments?: object}`. */
export function assertToolCallEnvelopes(body: unknown): void {
  for (const m of Array.isArray(body) ? body : [body]) {
    if (!isRecord(m) || m.method !== 'tools/call') continue;
    const p = m.params;
    if (!isRecord(p) || typeof p.name !== 'string' || (p.arguments !== undefined && !isRecord(p.arguments))) {
      throw new AppError('validation_failed', 'tools/call params must be an object {name: string, arguments?: object}');
    }
  }
}

/** Throws 400 `validation_failed` when two requests of one batch carry the same JSON-RPC id (compared as JSON). */
export function assertDistinctRequestIds(body: unknown): void {
  if (!Array.isArray(body)) return;
  const seen = new Set<string>();
  for (const m of body) {
    if (!isRecord(m) || typeof m.method !== 'string' || m.id === undefined) continue; // notifications carry no id
    const id = JSON.stringify(m.id);
    if (seen.has(id)) throw new AppError('validation_failed', `JSON-RPC id ${id} is used by two requests of one batch; each request needs its own id`);
    seen.add(id);
  }
}
