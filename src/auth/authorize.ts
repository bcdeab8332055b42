// Who is calling, and may they run an operation: one pure decision shared by the REST and MCP doors.
import { AppError } from '../errors/app-error.js';
import type { ApiKey, VerifyFailure } from './keys.js';
import type { RequiredScope } from './scopes.js';

/**
 * `rejected`: an Authorization header was sent but is not a valid key (malformed, unknown, revoked). Such a caller
 * is refused everywhere, reads included, rather than silently downgraded to anonymous: a client with a broken key
 * should learn it at once, not hit the anonymous limit later. For rate limiting it counts as its IP.
 */
export type Caller =
  | { kind: 'anonymous'; ip: string }
  /** `viaToken`: the key was reached through an OAuth access token (narrowed to the token's scopes), not presented itself. */
  | { kind: 'key'; key: ApiKey; ip: string; viaToken?: boolean }
  | { kind: 'rejected'; reason: VerifyFailure; ip: string };

const REJECTION_TEXT: Record<VerifyFailure, string> = {
  missing: 'no API key',
  too_long: 'Authorization header too long',
  not_bearer: 'Authorization must be "Bearer <API key>"',
  malformed: 'malformed API key',
  unknown_key: 'unknown API key',
  bad_secret: 'invalid API key',
  revoked: 'API key revoked',
  invalid_token: 'access token unknown or expired',
  wrong_resource: 'access token issued for another resource',
};

/**
 * Returns null when allowed, else the error to answer with. Rules: reads are open during the beta (anonymous or any
 * valid key); `private` needs any valid key; other scopes need a key holding that scope. No key → 401
 * `unauthorized`; a key without the scope → 403 `forbidden_scope`.
 */
export function authorize(caller: Caller, required: RequiredScope): AppError | null {
  if (caller.kind === 'rejected') return new AppError('unauthorized', REJECTION_TEXT[caller.reason]);
  if (required === 'read') return null;
  if (caller.kind === 'anonymous') return new AppError('unauthorized', `this operation needs an API key${required === 'private' ? '' : ` with scope "${required}"`}`);
  if (required === 'private' || caller.key.scopes.includes(required)) return null;
  return new AppError('forbidden_scope', `this API key lacks scope "${required}"`, { details: { required_scope: required, key_scopes: caller.key.scopes } });
}

/** The actor string written on sync-stream records and audit rows: `key:<id>` or `anonymous`. */
export function actorOf(caller: Caller): string {
  return caller.kind === 'key' ? `key:${caller.key.id}` : 'anonymous';
}

/**
 * Who owns what this caller writes and may read: `key:<root key id>` (the same across rotations of a key), or null
 * for a caller without a valid key, who owns nothing. For a key never rotated it equals actorOf.
 */
export function ownerOf(caller: Caller): string | null {
  return caller.kind === 'key' ? `key:${caller.key.owner_id ?? caller.key.id}` : null;
}
