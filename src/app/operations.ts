// The application layer: one function per operation of contracts/operations.ts, taking the validated input and who
// is asking, answering the contract output. Both doors call these and nothing else; they never compute.
import type { Caller } from '../auth/authorize.js';
import { OPERATIONS } from '../contracts/operations.js';
import { AppError } from '../errors/app-error.js';
import type { ServiceContext } from './context.js';
import type { DoorServices } from './door-services.js';
import { analyticsOperations } from './analytics-ops.js';
import { keyOperations } from './key-ops.js';
import { privateOperations } from './private-ops.js';
import { readOperations } from './read-ops.js';
import { stateOperations } from './state-ops.js';
import { valuationOperations } from './valuation-ops.js';
import { webOperations } from './web-ops.js';

/** Who is asking: the caller (key or anonymous) and the request id errors and audit rows carry. */
export type CallContext = { caller: Caller; requestId: string };

/** An operation's function; the answer is its output object, a JsonText of it, or a Reply with status and headers. */
export type OperationFn = (input: never, call: CallContext) => Promise<unknown>;

/** Streams have their own route (GET /api/events): no function. */
const STREAMS = new Set(['events']);

/** Every operation's function by id; throws at start-up when one is missing or unknown (a contract without a body). */
export function buildOperations(svc: ServiceContext, doors: DoorServices): ReadonlyMap<string, OperationFn> {
  const fns: Record<string, OperationFn> = { ...readOperations(svc), ...stateOperations(svc, doors), ...valuationOperations(svc), ...privateOperations(svc), ...webOperations(svc), ...keyOperations(svc, doors), ...analyticsOperations(svc, doors) };
  const ids = new Set(OPERATIONS.map((o) => o.id));
  const missing = [...ids].filter((id) => !STREAMS.has(id) && !fns[id]);
  const unknown = Object.keys(fns).filter((id) => !ids.has(id));
  if (missing.length > 0 || unknown.length > 0) throw new AppError('internal_error', `operations without a function: ${missing.join(', ') || '-'}; functions without an operation: ${unknown.join(', ') || '-'}`);
  return new Map(Object.entries(fns));
}
