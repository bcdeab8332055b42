// When the shared PostgreSQL store does not answer (down, restarting, unreachable, out of connections), a request
// that needs it is answered 503 shared_store_unavailable with Retry-After, never a 500, and a valid key whose check
// could not be made is not told it is invalid. The outcome of a write cut this way is unknown until a read shows it.
import { AppError } from '../../errors/app-error.js';
import { SHARED_STATE } from '../../registry/groups/shared-state.js';

/** Socket-level failures (node) and the SQLSTATEs of a server that cannot serve: connection exception (class 08),
 * admin/crash shutdown, cannot connect now, too many connections. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);
/** pg and pg-pool's own messages for a connection lost or never made (they carry no code). */
const LOST_CONNECTION = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i;

export function isStoreUnavailable(e: unknown): boolean {
  if (e instanceof AggregateError) return e.errors.some(isStoreUnavailable);
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.has(code) || code.startsWith('08'))) return true;
  return LOST_CONNECTION.test(e.message);
}

/** The AppError to answer for `e` when it is the shared store not answering, else null. */
export function storeUnavailableError(e: unknown): AppError | null {
  if (!isStoreUnavailable(e)) return null;
  return new AppError('shared_store_unavailable', 'the shared state store (PostgreSQL) is not answering; retry', { retryAfterSec: SHARED_STATE.v.unavailable_retry_after_s, cause: e });
}
