// The envelope of each tools/call message the tool door receives, checked before the MCP SDK sees it: the v1 SDK
// answers params that do not parse with JSON-RPC -32603 "internal error" carrying its zod issues, the MCP
// counterpart of a 500. A malformed envelope is the caller's error: 400 validation_failed.
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
