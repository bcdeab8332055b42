// GET /api/openapi.json: the OpenAPI 3.1 document of the REST door, generated from OPERATIONS with zod's JSON
// Schema (draft 2020-12, the dialect of OpenAPI 3.1). Every error response is the one error body.
import { OPERATIONS, type Operation } from './operations.js';
import { ERROR_CODES } from '../errors/codes.js';
import { SERVING_VERSION } from '../registry/versions.js';
import { toJson } from './manifest.js';
import { ErrorBodySchema } from './error-body.js';

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid input (validation_failed, invalid_cursor, ...)',
  '401': 'unauthorized: a key is needed, or the one sent is malformed, unknown or revoked',
  '403': 'forbidden_scope / forbidden_host',
  '404': 'not_found and its specific variants',
  '405': 'method_not_allowed (with Allow)',
  '429': 'rate_limited; see Retry-After',
  '431': 'request_header_too_large: the request line (query included) and headers exceed 16 KiB',
  '501': 'not_implemented: the engine behind this operation has not landed in this build',
  '503': 'pool_queue_full, pool_timeout, worker_crashed, corpus_unavailable, snapshot_unverified; see Retry-After',
};
const BODY_ERROR_STATUSES: Record<string, string> = { '413': 'payload_too_large', '415': 'unsupported_media_type: the body must be application/json' };
/** Operations that answer some status with their own body rather than the error body (health says why it is down). */
const OWN_BODY_STATUSES: Record<string, string[]> = { health: ['503'] };

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

function responses(op: Operation): Record<string, unknown> {
  const produces = op.rest!.produces ?? 'json';
  const ok = produces === 'sse'
    ? { description: 'Server-Sent Events stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }
    : produces === 'html'
      ? { description: 'An HTML page; its Content-Security-Policy header names what it may run and load (the model page: nothing; the map: this service only)', content: { 'text/html': { schema: { type: 'string' } } } }
      : { description: 'OK', content: { 'application/json': { schema: toJson(op.output, 'output') } } };
  const out: Record<string, unknown> = { [String(op.rest!.status)]: ok };
  const statuses = op.rest!.from === 'body' ? { ...ERROR_STATUSES, ...BODY_ERROR_STATUSES } : ERROR_STATUSES;
  for (const [status, description] of Object.entries(statuses).sort()) {
    out[status] = OWN_BODY_STATUSES[op.id]?.includes(status)
      ? { ...(ok as object), description }
      : { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
  }
  return out;
}

function operationObject(op: Operation): Record<string, unknown> {
  // `private`: any valid key, whatever its scopes (spec, Authentication 6).
  const security = op.scope === 'read' ? [{}, { bearerKey: [] }] : op.scope === 'operator' ? [{ operatorSecret: [] }] : [{ bearerKey: op.scope === 'private' ? [] : [op.scope] }];
  return {
    operationId: op.id,
    summary: op.summary,
    'x-scope': op.scope,
    security,
    ...(op.rest!.from === 'query' ? { parameters: queryParameters(op) } : { requestBody: { required: true, content: { 'application/json': { schema: toJson(op.input, 'input') } } } }),
    responses: responses(op),
  };
}

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    if (!op.rest) continue;
    (paths[op.rest.path] ??= {})[op.rest.method.toLowerCase()] = operationObject(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cook + Lake valuation and investment-analysis service',
      version: SERVING_VERSION,
      description: 'Automated valuation model output, not an appraisal. The MCP tool server is at POST /mcp (see /mcp/v2/manifest).',
    },
    paths,
    components: {
      schemas: { ErrorBody: toJson(ErrorBodySchema, 'output'), ErrorCode: { type: 'string', enum: Object.keys(ERROR_CODES) } },
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: 'API key avm_<id>_<secret>; scopes read, underwrite, write-state, webhooks' },
        operatorSecret: { type: 'http', scheme: 'bearer', description: 'Operator secret (WRITE_SECRET)' },
      },
    },
  };
}
