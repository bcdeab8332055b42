// The closed set of key scopes, the alias `alerts:write`, and parsing of a scope list from the CLI or an API.
import { SCOPE_ALIASES, SCOPES, type Scope } from '../contracts/auth.js';
import { AppError } from '../errors/app-error.js';

export { OAUTH_SCOPE_TEXT, OAUTH_SCOPES, SCOPE_ALIASES, SCOPE_NAMES, SCOPE_TEXT, SCOPES, type Scope, type RequiredScope } from '../contracts/auth.js';

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
    // own properties only: `constructor` or `__proto__` must not resolve through the object's prototype
    const canonical = isScope(s) ? s : Object.hasOwn(SCOPE_ALIASES, s) ? (SCOPE_ALIASES as Readonly<Record<string, Scope>>)[s] : undefined;
    if (!canonical) throw new AppError('validation_failed', `unknown scope "${s}"; allowed: ${[...SCOPES, ...Object.keys(SCOPE_ALIASES)].join(', ')}`);
    out.add(canonical);
  }
  if (out.size === 0) throw new AppError('validation_failed', 'at least one scope is required');
  return SCOPES.filter((s) => out.has(s));
}
