// The authorization server: oidc-provider configured for MCP authorization (2026-07-28 revision, and what 2025-era
// clients expect). Authorization code + PKCE S256 only, public clients registered by Dynamic Client Registration
// (RFC 7591) or identified by a Client ID Metadata Document, exact redirect URIs, the `resource` parameter bound into
// opaque access tokens, refresh tokens rotated on every use, revocation (RFC 7009). The consent page is ours (src/http).
import Provider, { errors, type Configuration } from 'oidc-provider';
import { cimdAllowFetch, cimdFetch, type CimdFetchOptions } from './cimd-fetch.js';
import { OAUTH } from '../../registry/groups/oauth.js';
import type { KeyStore } from '../keys.js';
import { OAUTH_SCOPES } from '../scopes.js';
import { resourceId } from './resource.js';
import type { ServerSecrets } from './secrets.js';
import type { OAuthStore } from './store.js';

export type AuthorizationServer = {
  provider: Provider;
  secrets: ServerSecrets;
  /** The API key minted when the owner approved grant `grantId` (null: none, e.g. a grant not made by our consent). */
  keyOfGrant(grantId: string): Promise<string | null>;
  /** Records that approving grant `grantId` minted key `keyId`: its tokens act as that key. */
  bindGrantToKey(grantId: string, keyId: string): Promise<void>;
};

export type AuthorizationServerOptions = {
  origin: string;
  /** Its records, secrets and grant bindings (LMDB, or PostgreSQL shared by replicas: src/store/backend.ts). */
  store: OAuthStore;
  keys: Pick<KeyStore, 'revokeKey' | 'getKey'>;
  /** Where the consent page of an interaction is (the HTTP door decides its path). */
  consentUrl: (uid: string) => string;
  routes: Record<string, string>;
  trustProxy: boolean;
  /** Client ID Metadata Document fetching: hosts exempt from the public-address guard, and their CAs (cimd-fetch.ts). */
  cimd: CimdFetchOptions;
  /** Errors of the provider's own (a storage failure), for the service log. */
  logError: (msg: string, extra?: unknown) => void;
};

export async function createAuthorizationServer(o: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const secrets = await o.store.secrets();
  const resources = new Set([resourceId(o.origin, 'mcp'), resourceId(o.origin, 'rest')]);
  const scopeText = OAUTH_SCOPES.join(' ');

  const configuration: Configuration = {
    adapter: o.store.adapterFactory(),
    clients: [],
    routes: o.routes,
    fetch: cimdFetch(o.cimd),
    jwks: { keys: [secrets.signingJwk] },
    cookies: { keys: [secrets.cookieKey], long: { httpOnly: true, sameSite: 'lax' }, short: { httpOnly: true, sameSite: 'lax' } },
    // Accounts are owners (see README "Sign-in (OAuth)"): the subject is the owner id; no identity claims are issued.
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: async (_ctx: unknown, interaction: { uid: string }) => o.consentUrl(interaction.uid) },
    responseTypes: ['code'],
    // Listed so that clients may register with `scope: "read underwrite"` (RFC 7591); granted per resource at consent.
    scopes: ['openid', 'offline_access', ...OAUTH_SCOPES],
    // PKCE for every client; oidc-provider 9 implements S256 only, so `plain` is refused as unsupported.
    pkce: { required: () => true },
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // A browser-based client may call the token and revocation endpoints from the origin of its redirect URIs only.
    clientBasedCORS: (_ctx, origin, client) => (client.redirectUris ?? []).some((u) => URL.parse(u)?.origin === origin),
    extraTokenClaims: async (_ctx, token) => {
      const keyId = 'grantId' in token && token.grantId ? await o.store.keyOfGrant(token.grantId) : null;
      return keyId ? { avm_key: keyId } : undefined;
    },
    ttl: {
      AuthorizationCode: OAUTH.v.authorization_code_ttl_s,
      AccessToken: OAUTH.v.access_token_ttl_s,
      RefreshToken: OAUTH.v.refresh_token_ttl_s,
      Grant: OAUTH.v.grant_ttl_s,
      Interaction: OAUTH.v.interaction_ttl_s,
      Session: OAUTH.v.session_ttl_s,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // The server fetches the client's https URL: the webhook SSRF guard refuses one resolving to a non-public address
        // (unless the operator named its host, cimd-fetch.ts).
        allowFetch: cimdAllowFetch(o.cimd),
      },
      // Off: DPoP-bound tokens would need a proof check in the resource server's middleware, which it does not make.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A request without `resource` is for the MCP endpoint (the clients this server exists for).
        defaultResource: async (_ctx, _client, oneOf) => oneOf?.[0] ?? resourceId(o.origin, 'mcp'),
        // At the token endpoint an omitted `resource` means the one the code was granted for.
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          if (!resources.has(indicator)) throw new errors.InvalidTarget(`this server issues tokens for ${[...resources].join(' and ')} only`);
          return { scope: scopeText, audience: indicator, accessTokenFormat: 'opaque', accessTokenTTL: OAUTH.v.access_token_ttl_s };
        },
      },
    },
    renderError: async (ctx: { type: string; body: unknown }, out: { error: string; error_description?: string }) => {
      ctx.type = 'application/json';
      ctx.body = { error: out.error, error_description: out.error_description };
    },
  };
  const provider = new Provider(o.origin, configuration);
  provider.proxy = o.trustProxy;
  // OAuth 2.1 section 3.2.2.1: a request that omits `scope` is served with a default, here every scope a sign-in can
  // grant (MCP clients omit it when neither the challenge nor the metadata names one); oidc-provider would otherwise
  // end it with access_denied ("no scope was granted") after the owner approved.
  // RFC 8414 scopes_supported: the scopes a client can obtain here (oidc-provider lists only its OpenID scopes).
  (provider as unknown as { use(fn: (ctx: any, next: () => Promise<void>) => Promise<void>): void }).use(async (ctx, next) => {
    if (ctx.path === o.routes.authorization && ctx.method === 'GET' && !ctx.query.scope) ctx.query = { ...ctx.query, scope: scopeText };
    await next();
    if (ctx.oidc?.route === 'discovery' && ctx.body && typeof ctx.body === 'object') ctx.body.scopes_supported = [...OAUTH_SCOPES];
  });
  // A revoked grant (its refresh token revoked, or a code reused) revokes the key its approval minted.
  provider.on('grant.revoked', (_ctx: unknown, grantId: string) => {
    o.store
      .keyOfGrant(grantId)
      .then((keyId) => (keyId ? o.keys.revokeKey(keyId) : null))
      .catch((e: unknown) => o.logError('revoking the key of a revoked OAuth grant failed', e));
  });
  provider.on('server_error', (_ctx: unknown, err: unknown) => o.logError('oauth server error', err));
  return {
    provider,
    secrets,
    keyOfGrant: (grantId) => o.store.keyOfGrant(grantId),
    bindGrantToKey: (grantId, keyId) => o.store.bindGrantToKey(grantId, keyId),
  };
}
