// The closed set of key scopes and what an operation may require; auth/ decides, the contracts only name them.
import { z } from 'zod';

export const SCOPES = ['read', 'underwrite', 'write-state', 'webhooks'] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

/** What an operation requires: a scope, or `private` (any valid key, whatever its scopes). */
export type RequiredScope = Scope | 'private';

/** `operator`: the WRITE_SECRET bearer (operator endpoints), checked by the operator guard, not by key scopes. */
export type OpScope = RequiredScope | 'operator';
