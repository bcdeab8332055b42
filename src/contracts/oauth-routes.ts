// The authorization server's own routes (oidc-provider's `routes` setting), under /oauth/: served by src/http/oauth/
// (paths.ts re-exports them for the canonical-path guard) and named by the OpenAPI document's oauth2 security scheme.
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  end_session: '/oauth/session/end',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  backchannel_authentication: '/oauth/backchannel',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  pushed_authorization_request: '/oauth/par',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
} as const;
