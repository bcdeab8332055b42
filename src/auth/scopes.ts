// The closed set of key scopes, the alias `alerts:write`, and parsing of a scope list from the CLI or an API.
import { SCOPES, type Scope } from '../contracts/auth.js';
import { AppError } from '../errors/app-error.js';

export { SCOPES, type Scope, type RequiredScope } from '../contracts/auth.js';

/**
 * `alerts:write` is announced by the spec "for when webhooks land": it names the same permission as `webhooks`,
 * so it is accepted as input and stored canonically as `webhooks` (one permission, one stored name).
 */
export const SCOPE_ALIASES: Readonly<Record<string, Scope>> = { 'alerts:write': 'webhooks' };

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/** Parses `read,underwrite` (or an array); unknown scopes are a validation_failed error, aliases canonicalised. */
export function parseScopes(input: string | readonly string[]): Scope[] {
  const raw = typeof input === 'string' ? input.split(',') : [...input];
  const out = new Set<Scope>();
  for (const item of raw) {
    const s = item.trim();
    if (s === '') continue;
    const canonical = isScope(s) ? s : SCOPE_ALIASES[s];
    if (!canonical) throw new AppError('validation_failed', `unknown scope "${s}"; allowed: ${[...SCOPES, ...Object.keys(SCOPE_ALIASES)].join(', ')}`);
    out.add(canonical);
  }
  if (out.size === 0) throw new AppError('validation_failed', 'at least one scope is required');
  return SCOPES.filter((s) => out.has(s));
}

/**
 * The scopes an OAuth client may ask for and the consent screen grants (issue 16): reading and underwriting. Writing
 * state and webhooks stay with operator- or owner-issued keys.
 */
export const OAUTH_SCOPES = ['read', 'underwrite'] as const satisfies readonly Scope[];

/** What each OAuth scope allows, in the words of the consent screen and the README. */
export const OAUTH_SCOPE_TEXT: Readonly<Record<(typeof OAUTH_SCOPES)[number], string>> = {
  read: 'read valuations, tracts, listings and market data (open to everyone during the beta; with a key, at the key rate limit)',
  underwrite: 'run underwriting tools: comps with adjustments (get_comps) and full pro-forma underwriting (deep_underwrite_asset)',
};
