// GET /api/openapi.json: the OpenAPI 3.1 document of the REST door, generated from OPERATIONS with zod's JSON
// Schema (draft 2020-12, the dialect of OpenAPI 3.1). Every error response is the one error body.
import { OPERATIONS, type Operation } from './operations.js';
import { ERROR_CODES } from '../errors/codes.js';
import { OAUTH_SCOPE_TEXT, OAUTH_SCOPES, SCOPE_NAMES, SCOPE_TEXT } from './auth.js';
import { OAUTH_ROUTES } from './oauth-routes.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { SERVING_VERSION } from '../registry/versions.js';
import { toJson } from './manifest.js';
import { ErrorBodySchema } from './error-body.js';
import type { ExampleSource } from './openapi-examples.js';
import { errorStatusesOf } from './openapi-statuses.js';
import { TAGS, tagOf } from './openapi-tags.js';
import { DISCLOSURE } from './valuation.js';

/** Operations that answer some status with their own body rather than the error body (health says why it is down). */
const OWN_BODY_STATUSES: Record<string, string[]> = { health: ['503'] };

/** Who may call, in the words of auth/authorize.ts: reads open, private any key, scoped ones a key with the scope. */
const ACCESS: Record<Operation['scope'], string> = {
  read: `Open: no key needed (anonymous callers share ${AUTH_LIMITS.v.anon_calls_per_window} calls per ${AUTH_LIMITS.v.anon_window_ms / 1000} s per IP; a key has its own limit).`,
  private: 'Needs any valid API key; answers only the caller\'s own records.',
  underwrite: 'Needs an API key with scope underwrite.',
  'write-state': 'Needs an API key with scope write-state.',
  webhooks: 'Needs an API key with scope webhooks (alerts:write, the announced name, is the same scope).',
  operator: 'Operator only: Bearer WRITE_SECRET.',
};

function queryParameters(op: Operation): unknown[] {
  const js = toJson(op.input, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: (js.required ?? []).includes(name),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
}

/** The recorded real answer (scripts/openapi-examples.ts), when it came with the documented success status. */
function exampleOf(op: Operation, examples: ExampleSource): { example?: unknown } {
  const rec = examples(op.id);
  return rec && rec.status === op.rest!.status ? { example: rec.body } : {};
}

function responses(op: Operation, examples: ExampleSource): Record<string, unknown> {
  const produces = op.rest!.produces ?? 'json';
  const ok = produces === 'sse'
    ? { description: 'Server-Sent Events stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }
    : produces === 'html'
      ? { description: 'An HTML page; its Content-Security-Policy header names what it may run and load (the model page: nothing; the map: this service only)', content: { 'text/html': { schema: { type: 'string' } } } }
      : op.rest!.status === 204
        ? { description: 'No Content' }
        : { description: 'OK', content: { 'application/json': { schema: toJson(op.output, 'output'), ...exampleOf(op, examples) } } };
  const out: Record<string, unknown> = { [String(op.rest!.status)]: ok };
  for (const [status, description] of Object.entries(errorStatusesOf(op)).sort()) {
    out[status] = OWN_BODY_STATUSES[op.id]?.includes(status)
      ? { ...(ok as object), description }
      : { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
  }
  return out;
}

/**
 * Who may call, as OpenAPI security requirements. `private`: any valid key, whatever its scopes (spec,
 * Authentication 6). An OAuth access token acts as the key its approval minted (scopes read and underwrite only), so
 * `oauth2` is listed where a key with those scopes is accepted, and not on write-state, webhooks or operator paths.
 */
function securityOf(scope: Operation['scope']): Array<Record<string, string[]>> {
  if (scope === 'operator') return [{ operatorSecret: [] }];
  if (scope === 'read') return [{}, { bearerKey: [] }, { oauth2: ['read'] }];
  if (scope === 'private') return [{ bearerKey: [] }, { oauth2: [] }];
  const viaOAuth = (OAUTH_SCOPES as readonly string[]).includes(scope) ? [{ oauth2: [scope] }] : [];
  return [{ bearerKey: [scope] }, ...viaOAuth];
}

function operationObject(op: Operation, examples: ExampleSource): Record<string, unknown> {
  return {
    operationId: op.id,
    summary: op.summary,
    description: `${op.summary}. ${ACCESS[op.scope]}`,
    tags: [tagOf(op)],
    'x-scope': op.scope,
    security: securityOf(op.scope),
    ...(op.rest!.from === 'query' ? { parameters: queryParameters(op) } : { requestBody: { required: true, content: { 'application/json': { schema: toJson(op.input, 'input') } } } }),
    responses: responses(op, examples),
  };
}

/** The one error body, its code pointing at ErrorCode, with a recorded real 400 as its example. */
function errorBodySchema(examples: ExampleSource): Record<string, unknown> {
  const js = toJson(ErrorBodySchema, 'output') as { properties: { error: { properties: Record<string, unknown> } } };
  js.properties.error.properties.code = { $ref: '#/components/schemas/ErrorCode' };
  const rec = examples('error_body');
  return { ...js, ...(rec ? { example: rec.body } : {}) };
}

/** `examples`: recorded real answers by operation id (app/openapi-examples.ts serves the committed ones). */
export function buildOpenApi(examples: ExampleSource = () => null): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    if (!op.rest) continue;
    (paths[op.rest.path] ??= {})[op.rest.method.toLowerCase()] = operationObject(op, examples);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cook + Lake valuation and investment-analysis service',
      version: SERVING_VERSION,
      description: `Valuations, underwriting and market signals for residential buildings of 1-4 units in Cook and Lake County, Illinois. ${DISCLOSURE} The MCP tool server is at POST /mcp (see /mcp/v2/manifest).`,
    },
    // Relative: the document is served by the service it describes, at whatever origin the caller reached.
    servers: [{ url: '/', description: 'this service (the origin that served this document)' }],
    tags: TAGS.map((t) => ({ ...t })),
    paths,
    components: {
      schemas: { ErrorBody: errorBodySchema(examples), ErrorCode: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'The closed taxonomy (GET /api/spec/error-taxonomy.json)' } },
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: `API key avm_<id>_<secret> or an OAuth access token (scopes read and underwrite only). Scopes: ${SCOPE_NAMES.map((n) => `${n}: ${SCOPE_TEXT[n]}`).join('; ')}.` },
        // URLs relative to the server (this service), as OpenAPI 3.1 allows; the metadata of both is at
        // /.well-known/oauth-authorization-server (README "Sign-in (OAuth)").
        oauth2: {
          type: 'oauth2',
          description: 'Sign-in (OAuth 2.1): authorization code with PKCE (S256 only) through the consent page; register by Dynamic Client Registration (POST /oauth/register) or use an https Client ID Metadata Document URL as client_id. Metadata: /.well-known/oauth-authorization-server and /.well-known/oauth-protected-resource. The access token is sent as Authorization: Bearer.',
          flows: { authorizationCode: { authorizationUrl: OAUTH_ROUTES.authorization, tokenUrl: OAUTH_ROUTES.token, refreshUrl: OAUTH_ROUTES.token, scopes: { ...OAUTH_SCOPE_TEXT } } },
        },
        operatorSecret: { type: 'http', scheme: 'bearer', description: 'Operator secret (WRITE_SECRET)' },
      },
    },
  };
}
