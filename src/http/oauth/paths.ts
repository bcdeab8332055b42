// Every path of the authorization server and of the resource metadata, in the one spelling the canonical-path guard
// serves. The authorization server's own routes (oidc-provider's `routes` setting) live under /oauth/.
import { MCP_PATH, PRM_PATH } from '../../auth/oauth/resource.js';
import { OAUTH_ROUTES } from '../../contracts/oauth-routes.js';

// The route table lives in contracts/ (the OpenAPI document names the authorize and token URLs from it).
export { OAUTH_ROUTES };

/** The consent page of one interaction: `/oauth/consent/<interaction uid>`. */
export const CONSENT_PATH = '/oauth/consent';

export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const OIDC_METADATA_PATH = '/.well-known/openid-configuration';
export const MCP_PRM_PATH = `${PRM_PATH}${MCP_PATH}`;

/**
 * Paths whose last segment is an opaque, case-sensitive identifier made by oidc-provider (an interaction uid, a
 * client id): `<prefix>/<id>` is canonical when the prefix is spelled exactly and the id is one plain segment.
 */
export const OAUTH_OPAQUE_ID_PREFIXES = [OAUTH_ROUTES.authorization, CONSENT_PATH, OAUTH_ROUTES.registration] as const;

/** Methods of the fixed OAuth paths, for the method guard (405 with Allow otherwise). */
export const OAUTH_ALLOWED_METHODS: ReadonlyArray<[string, string[]]> = [
  [PRM_PATH, ['GET', 'HEAD']],
  [MCP_PRM_PATH, ['GET', 'HEAD']],
  [AS_METADATA_PATH, ['GET', 'HEAD']],
  [OIDC_METADATA_PATH, ['GET', 'HEAD']],
  [OAUTH_ROUTES.jwks, ['GET', 'HEAD']],
  [OAUTH_ROUTES.authorization, ['GET', 'HEAD', 'POST']],
  [OAUTH_ROUTES.token, ['POST']],
  [OAUTH_ROUTES.registration, ['POST']],
  [OAUTH_ROUTES.revocation, ['POST']],
];

/**
 * The name an OAuth request is counted under (audit, metrics, access log), or null for a path that is not the
 * authorization server's: a bounded set, never the raw path (uids and client ids are unbounded).
 */
export function oauthOperationOf(path: string): string | null {
  if (path.startsWith(`${CONSENT_PATH}/`)) return 'oauth_consent';
  if (path.startsWith(`${OAUTH_ROUTES.authorization}/`)) return 'oauth_authorize_resume';
  if (path.startsWith(`${OAUTH_ROUTES.registration}/`)) return 'oauth_client_read';
  const fixed: Record<string, string> = {
    [OAUTH_ROUTES.authorization]: 'oauth_authorize', [OAUTH_ROUTES.token]: 'oauth_token', [OAUTH_ROUTES.registration]: 'oauth_register',
    [OAUTH_ROUTES.revocation]: 'oauth_revoke', [OAUTH_ROUTES.jwks]: 'oauth_jwks', [AS_METADATA_PATH]: 'oauth_metadata', [OIDC_METADATA_PATH]: 'oauth_metadata',
  };
  return fixed[path] ?? null;
}
