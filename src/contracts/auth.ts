// The closed set of key scopes and what an operation may require; auth/ decides, the contracts only name them.
import { z } from 'zod';

export const SCOPES = ['read', 'underwrite', 'write-state', 'webhooks'] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

/**
 * `alerts:write` is announced by the spec (Authentication 4) "for when webhooks land": it names the same permission as
 * `webhooks`, so it is accepted wherever a scope is given and stored canonically as `webhooks` (one permission, one
 * stored name); the `webhooks` scope keeps guarding webhook channels.
 */
export const SCOPE_ALIASES = { 'alerts:write': 'webhooks' } as const satisfies Readonly<Record<string, Scope>>;
/** Every scope name accepted as input: the four scopes and the alias. */
export const SCOPE_NAMES = [...SCOPES, ...(Object.keys(SCOPE_ALIASES) as Array<keyof typeof SCOPE_ALIASES>)] as const;
export const ScopeNameSchema = z.enum(SCOPE_NAMES);

/** What each scope allows: the one text the OpenAPI document, the keys page and the README list. */
export const SCOPE_TEXT: Readonly<Record<(typeof SCOPE_NAMES)[number], string>> = {
  read: 'read valuations, tracts, listings and market data (open to everyone during the beta; with a key, at the key rate limit)',
  underwrite: 'run underwriting tools: comps with adjustments (get_comps) and full pro-forma underwriting (deep_underwrite_asset)',
  'write-state': 'write the owner\'s state: favorites, notes, underwriting presets and alert profiles',
  webhooks: 'deliver alerts to a webhook channel (an alert profile with channels.webhook)',
  'alerts:write': 'the same permission as webhooks, under the name the spec announces for alert delivery; stored as webhooks',
};

/** What an operation requires: a scope, or `private` (any valid key, whatever its scopes). */
export type RequiredScope = Scope | 'private';

/** `operator`: the WRITE_SECRET bearer (operator endpoints), checked by the operator guard, not by key scopes. */
export type OpScope = RequiredScope | 'operator';

/**
 * The scopes an OAuth client may ask for and the consent screen grants (issue 16): reading and underwriting. Writing
 * state and webhooks stay with operator- or owner-issued keys.
 */
export const OAUTH_SCOPES = ['read', 'underwrite'] as const satisfies readonly Scope[];

/** What each OAuth scope allows, in the words of the consent screen and the README. */
export const OAUTH_SCOPE_TEXT: Readonly<Record<(typeof OAUTH_SCOPES)[number], string>> = { read: SCOPE_TEXT.read, underwrite: SCOPE_TEXT.underwrite };
