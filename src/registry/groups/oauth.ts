// The OAuth 2.1 authorization server (issue 16): lifetimes of its codes, tokens, grants and consent interactions.
import { c, defineGroup } from '../define.js';

const SPEC = 'MCP authorization spec 2026-07-28 / OAuth 2.1 draft (short-lived single-use codes, rotated refresh tokens)';
const ENG = 'engineering choice (issue 16), documented in README "Sign-in (OAuth)"';

export const OAUTH = defineGroup({
  name: 'oauth',
  version: '1.0.0',
  owner: 'auth',
  entries: {
    authorization_code_ttl_s: c(60, 's', 'an authorization code is redeemed by the client right after the redirect; one minute bounds a leaked code (OAuth 2.1 section 4.1.2 recommends at most 10 minutes)', SPEC),
    access_token_ttl_s: c(3_600, 's', 'one hour: a stolen access token is useful for at most an hour; the client refreshes silently', ENG),
    refresh_token_ttl_s: c(1_209_600, 's', 'fourteen days of inactivity before the owner must consent again; each use rotates it', ENG),
    grant_ttl_s: c(1_209_600, 's', 'a consent (grant) lives as long as its refresh token', ENG),
    interaction_ttl_s: c(600, 's', 'ten minutes to read and answer the consent page', ENG),
    session_ttl_s: c(86_400, 's', 'the authorization server browser session (cookie) lasts a day', ENG),
    sweep_interval_hours: c(24, 'hours', 'expired codes, tokens, grants and interactions are removed at start and once a day (they are already refused when looked up; the sweep only frees space)', ENG),
  },
});
