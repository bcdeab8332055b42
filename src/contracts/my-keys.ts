// Inputs and outputs of the owner's self-serve keys (spec, Authentication 7; issue 16 item 2): create with chosen
// scopes (the secret shown once), list (never a secret), rotate, revoke, and the per-key audit records (12 months).
import { z } from 'zod';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { SCOPE_NAMES, ScopeNameSchema, ScopeSchema } from './auth.js';

const L = AUTH_LIMITS.v;

/** The label prefix of keys an OAuth consent mints (`oauth: <client>`); a label given at creation may not use it. */
export const OAUTH_LABEL_PREFIX = 'oauth:';

/**
 * What JavaScript's String#trim removes (ECMA-262 WhiteSpace and LineTerminator), as regex escapes: the label pattern
 * below is published in the OpenAPI document, and a `\s` there means another set to another regex engine (Python's
 * counts U+001C–U+001F and not U+FEFF), so a label the document allowed could still be refused.
 */
const TRIMMED = String.raw`\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff`;
/**
 * A label as sent holds at least one character trim keeps: stated as a pattern so the document says what the service
 * checks (Schemathesis sent "\f", which a bare minLength 1 allowed and the trimmed min(1) refused). The OAuth prefix
 * rule stays in the description and owner-keys.ts (a lookahead is more than some clients' generators handle).
 */
const LABEL_PATTERN = new RegExp(`[^${TRIMMED}]`);
/** A key id as the key format has it: 12 lower-case hex characters (AUTH_LIMITS.key_id_bytes). */
const KeyIdSchema = z.string().regex(new RegExp(`^[0-9a-f]{${L.key_id_bytes * 2}}$`), 'a key id is 12 lower-case hex characters');

export const KeyViewSchema = z.object({
  id: z.string().describe('the key id (the part after avm_ in the key); not a secret'),
  label: z.string().nullable().describe('the name given at creation; `oauth: <client>` for a key an OAuth consent minted'),
  scopes: z.array(ScopeSchema).describe('what the key may do (alerts:write is stored as webhooks)'),
  rpm_limit: z.number().int().describe('calls per minute of the key\'s own token bucket'),
  created_at: z.string().describe('ISO timestamp'),
  last_used_at: z.string().nullable().describe('the newest audit record of the key within retention; null when none'),
  revoked_at: z.string().nullable().describe('ISO timestamp of revocation (rotation revokes the old key); null while active'),
  rotated_from: z.string().nullable().describe('the key this one replaced by rotation'),
  oauth: z.boolean().describe('minted by an OAuth consent for a client: revocable here, not rotatable'),
}).describe('an API key of the caller\'s owner, never its secret');
export type KeyView = z.infer<typeof KeyViewSchema>;

export const MyKeysOutputSchema = z.object({
  owner: z.string().describe('the owner every key here belongs to (the root key id of the owner\'s first key)'),
  keys: z.array(KeyViewSchema).describe('oldest first; revoked keys included'),
});

export const CreateKeyInputSchema = z.strictObject({
  scopes: z.array(ScopeNameSchema.describe(`one of ${SCOPE_NAMES.join(', ')}`)).min(1).max(SCOPE_NAMES.length)
    .describe('the scopes of the new key: at least one, each held by the key making the request'),
  label: z.string().max(L.key_label_max_chars).regex(LABEL_PATTERN, 'a label needs a character other than white space').trim().min(1).optional().describe(`a name for the key (device or client), at most ${L.key_label_max_chars} characters, not white space alone; it may not start with "${OAUTH_LABEL_PREFIX}"`),
});
export type CreateKeyInput = z.output<typeof CreateKeyInputSchema>;

export const IssuedKeyOutputSchema = z.object({
  key: KeyViewSchema,
  secret: z.string().describe('the new key, avm_<id>_<secret>: shown this once and stored only hashed'),
  revoked_key_id: z.string().nullable().describe('the key a rotation revoked; null on creation'),
});

export const KeyIdInputSchema = z.strictObject({ key_id: KeyIdSchema.describe('id of one of your keys (12 hex characters)') });
export type KeyIdInput = z.output<typeof KeyIdInputSchema>;
export const RevokedKeyOutputSchema = z.object({ key: KeyViewSchema });

export const KeyAuditQuerySchema = z.strictObject({
  key_id: KeyIdSchema.optional().describe('only this key\'s records; every key of yours when omitted'),
  limit: z.number().int().min(1).max(L.key_audit_page_max).default(L.key_audit_page_default).describe(`records, newest first, 1-${L.key_audit_page_max}`),
});
export type KeyAuditQuery = z.output<typeof KeyAuditQuerySchema>;
export const KeyAuditRecordSchema = z.object({
  key_id: z.string().describe('the key that made the call'),
  op: z.string().describe('the operation called (operation id, tool name, or an oauth_* step)'),
  at: z.string().describe('ISO timestamp of the call'),
  status: z.number().int().describe('the HTTP status answered'),
  request_id: z.string().describe('the X-Request-Id of the call'),
  ip: z.string().describe('the client address the call came from'),
});
export const KeyAuditOutputSchema = z.object({
  retention_months: z.number().int().describe('records older than this many calendar months are deleted and never shown'),
  since: z.string().describe('ISO timestamp: the oldest moment a record shown can carry (now minus the retention)'),
  records: z.array(KeyAuditRecordSchema).describe('newest first'),
  truncated: z.boolean().describe('true when more records exist than limit'),
});
