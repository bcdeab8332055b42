// Maps any thrown error to the one error body {error: {code, message, request_id}} with the taxonomy's HTTP status.
// Unknown errors become 500 internal_error with nothing internal exposed; the log keeps the detail.
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { AppError, isAppError } from '../errors/app-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { errorBody } from '../contracts/error-body.js';
import { validationError } from '../errors/validation.js';
import { storeUnavailableError } from '../store/pg/unavailable.js';
import { assignRequestId } from './middleware/request-id.js';

export { ErrorBodySchema, errorBody, type ErrorBody } from '../contracts/error-body.js';

export { validationError } from '../errors/validation.js';

/** Converts known non-AppError failures (Koa's own 4xx, body parsing) to taxonomy errors. */
function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  if (err instanceof z.ZodError) return validationError(err, 'request');
  const unavailable = storeUnavailableError(err);
  if (unavailable) return unavailable;
  const status = typeof (err as { status?: unknown })?.status === 'number' ? (err as { status: number }).status : 500;
  const byStatus: Record<number, ErrorCode> = { 400: 'validation_failed', 404: 'not_found', 405: 'method_not_allowed', 413: 'payload_too_large', 415: 'unsupported_media_type' };
  const code = byStatus[status];
  if (code) return new AppError(code, (err as Error).message || code);
  return new AppError('internal_error', 'internal error', { cause: err });
}

/**
 * Catches everything below it and answers the one error body carrying the request id; logs each 5xx once, with that id
 * (the access log line names the code too: `ctx.state.errorCode`).
 */
export function errorMiddleware(log: (msg: string, extra?: unknown) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const requestId = assignRequestId(ctx);
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null && ctx.respond !== false) throw new AppError('not_found', `no route for ${ctx.method} ${ctx.path}`);
    } catch (err) {
      const e = toAppError(err);
      ctx.state.errorCode = e.code;
      if (e.status >= 500) log('request failed', { request_id: requestId, code: e.code, err: err instanceof Error ? err : String(err) });
      ctx.status = e.status;
      if (e.retryAfterSec != null) ctx.set('Retry-After', String(e.retryAfterSec));
      ctx.body = errorBody(e, requestId);
    }
  };
}
