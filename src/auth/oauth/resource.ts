// The service as an OAuth protected resource (RFC 9728): its public origin, its two resource identifiers (the REST
// API at the origin, the MCP endpoint at <origin>/mcp), their metadata documents, and the Bearer challenge that
// points a client at them. Pure: the HTTP door supplies the origin.
import { OAUTH_SCOPES } from '../scopes.js';

export const PRM_PATH = '/.well-known/oauth-protected-resource';
export const MCP_PATH = '/mcp';

/** The public origin: AVM_PUBLIC_URL, else http://HOST:port (127.0.0.1 when HOST is a wildcard address). */
export function publicOrigin(o: { publicUrl?: string | null; host: string; port: number }): string {
  if (o.publicUrl) return o.publicUrl;
  const host = o.host === '0.0.0.0' || o.host === '::' || o.host === '' ? '127.0.0.1' : o.host.includes(':') ? `[${o.host}]` : o.host;
  return `http://${host}:${o.port}`;
}

/** Which resource a request path belongs to: the MCP endpoint, or the REST API (everything else). */
export function resourceKindOf(path: string): 'mcp' | 'rest' {
  return path === MCP_PATH || path.startsWith(`${MCP_PATH}/`) ? 'mcp' : 'rest';
}

/** The resource identifier (RFC 8707) of each kind: `<origin>` for REST, `<origin>/mcp` for MCP (no trailing slash). */
export function resourceId(origin: string, kind: 'mcp' | 'rest'): string {
  return kind === 'mcp' ? `${origin}${MCP_PATH}` : origin;
}

/** RFC 9728 section 3: the metadata URL is the well-known path inserted before the resource's path. */
export function metadataUrl(origin: string, kind: 'mcp' | 'rest'): string {
  return `${origin}${PRM_PATH}${kind === 'mcp' ? MCP_PATH : ''}`;
}

/** The Protected Resource Metadata document of one resource; this service is its own authorization server. */
export function protectedResourceMetadata(origin: string, kind: 'mcp' | 'rest') {
  return {
    resource: resourceId(origin, kind),
    authorization_servers: [origin],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: kind === 'mcp' ? 'Cook and Lake County AVM (MCP tools)' : 'Cook and Lake County AVM (REST API)',
    resource_documentation: `${origin}/api/openapi.json`,
  };
}

/**
 * The WWW-Authenticate value of a refusal (RFC 6750 section 3, RFC 9728 section 5.1): always the resource metadata
 * URL; `invalid_token` when a presented token was refused; `insufficient_scope` with the scope needed when a valid
 * token is too narrow; with no token, the scopes a sign-in grants, so the client asks for them.
 */
export function bearerChallenge(o: { origin: string; path: string; refusal: 'no_token' | 'invalid_token' | 'insufficient_scope'; scope?: string }): string {
  const parts = ['Bearer realm="avm"', `resource_metadata="${metadataUrl(o.origin, resourceKindOf(o.path))}"`];
  if (o.refusal === 'invalid_token') parts.push('error="invalid_token"');
  if (o.refusal === 'insufficient_scope') parts.push('error="insufficient_scope"');
  const scope = o.scope ?? (o.refusal === 'no_token' ? OAUTH_SCOPES.join(' ') : undefined);
  if (scope) parts.push(`scope="${scope}"`);
  return parts.join(', ');
}
