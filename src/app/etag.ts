// A strong ETag of a response's bytes (RFC 9110 8.8.3): the map's layers (app/web-ops.ts) and its static assets
// (http/web-assets.ts) are revalidated with it; the conditional-get middleware turns a match into a 304.
import { createHash } from 'node:crypto';

/** Quoted, 32 base64url characters of the body's sha256 (192 bits: collisions are not a concern). */
export const strongEtag = (body: string | Buffer): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
