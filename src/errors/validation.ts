// A zod failure as the taxonomy's validation_failed, listing each offending path: one wording for the REST door's
// query and body and the MCP door's tool arguments.
import type { z } from 'zod';
import { AppError } from './app-error.js';

/** Converts a zod failure into a validation AppError listing each offending path. */
export function validationError(err: z.ZodError, where: string): AppError {
  const issues = err.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message }));
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new AppError('validation_failed', `invalid ${where}: ${summary}`, { details: issues });
}
