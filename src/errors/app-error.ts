// The one error type: a taxonomy code, its HTTP status, and whether the message may be shown to a caller.
import { ERROR_CODES, type ErrorCode } from './codes.js';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** 4xx messages are shown to the caller; 5xx messages stay in the log. */
  readonly expose: boolean;
  readonly details: unknown;
  readonly retryAfterSec: number | null;

  constructor(code: ErrorCode, message: string, opts: { details?: unknown; retryAfterSec?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    // 501 not_implemented and 503 say what is missing or busy; no other 5xx message reaches a caller.
    this.expose = this.status < 500 || this.status === 503 || this.status === 501;
    this.details = opts.details ?? null;
    this.retryAfterSec = opts.retryAfterSec ?? null;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
