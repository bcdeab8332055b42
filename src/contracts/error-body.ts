// The one error body of both doors: {"error": {"code", "message", "request_id", "details"?}} with a code from the
// taxonomy. A 5xx says only "internal error"; details go out only with an exposed (4xx) error.
import { z } from 'zod';
import type { AppError } from '../errors/app-error.js';
import { ERROR_CODES, type ErrorCode } from '../errors/codes.js';

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    request_id: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function errorBody(e: AppError, requestId: string): ErrorBody {
  const message = e.expose ? e.message : 'internal error';
  const body: ErrorBody = { error: { code: e.code, message, request_id: requestId } };
  if (e.expose && e.details != null) body.error.details = e.details;
  return body;
}
