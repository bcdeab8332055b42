// Form tokens of the keys page against cross-site request forgery (the double-submit pattern): the page sets a random
// nonce in an HttpOnly, SameSite=Strict cookie and embeds HMAC-SHA-256(nonce) in each form; a post is accepted only
// when the form's token is the HMAC of the cookie it came with. The HMAC key is made per process: a restart
// invalidates open pages (the owner reloads), which costs less than storing a secret. The consent page binds its
// token to oidc-provider's interaction instead (src/http/oauth/consent-route.ts).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type FormTokens = {
  /** A new nonce (for the cookie) and the token the page embeds. */
  issue(): { nonce: string; token: string };
  /** Whether `token` is the token of `nonce`; false for anything missing or malformed. */
  check(nonce: string | undefined, token: string | null | undefined): boolean;
};

export function formTokens(purpose: string): FormTokens {
  const key = randomBytes(32);
  const tokenOf = (nonce: string): string => createHmac('sha256', key).update(`${purpose}:${nonce}`).digest('base64url');
  return {
    issue() {
      const nonce = randomBytes(16).toString('base64url');
      return { nonce, token: tokenOf(nonce) };
    },
    check(nonce, token) {
      if (!nonce || !token || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return false;
      const a = Buffer.from(token);
      const b = Buffer.from(tokenOf(nonce));
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}
