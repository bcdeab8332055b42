// Form tokens against cross-site request forgery: HMAC-SHA-256 of a value the request carries by another channel than
// the form. The keys page uses the double-submit pattern: it sets a random nonce in an HttpOnly, SameSite=Strict cookie
// and embeds the HMAC of that nonce in each form (key made per process: a restart invalidates open pages, which costs
// less than storing a secret). The OAuth consent page binds its token to oidc-provider's interaction uid under the
// authorization server's stored cookie key (src/http/oauth/consent-route.ts). One HMAC and one constant-time compare.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type BoundTokens = {
  /** The token a form carries for `value`. */
  tokenFor(value: string): string;
  /** Whether `token` is the token of `value` (constant time); false for anything missing. */
  matches(value: string | null | undefined, token: string | null | undefined): boolean;
};

/** Tokens bound to a value under `key` (default: a random per-process key); `purpose` separates their uses. */
export function boundTokens(purpose: string, key: string | Buffer = randomBytes(32)): BoundTokens {
  const tokenFor = (value: string): string => createHmac('sha256', key).update(`${purpose}:${value}`).digest('base64url');
  return {
    tokenFor,
    matches(value, token) {
      if (!value || !token) return false;
      const a = Buffer.from(token);
      const b = Buffer.from(tokenFor(value));
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}

export type FormTokens = {
  /** A new nonce (for the cookie) and the token the page embeds. */
  issue(): { nonce: string; token: string };
  /** Whether `token` is the token of `nonce`; false for anything missing or malformed. */
  check(nonce: string | undefined, token: string | null | undefined): boolean;
};

/**
 * The double-submit form tokens of a page (a nonce per page view, for its cookie). `key`: replicas behind one address
 * share it (src/store/backend.ts), so a page served by one is accepted by another; default a per-process key.
 */
export function formTokens(purpose: string, key?: string | Buffer): FormTokens {
  const bound = boundTokens(purpose, key);
  return {
    issue() {
      const nonce = randomBytes(16).toString('base64url');
      return { nonce, token: bound.tokenFor(nonce) };
    },
    check: (nonce, token) => nonce !== undefined && /^[A-Za-z0-9_-]{22}$/.test(nonce) && bound.matches(nonce, token),
  };
}
