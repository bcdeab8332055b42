// GET /.well-known/oauth-protected-resource (the REST API) and its path-suffixed form for /mcp (RFC 9728 section 3).
// Open to any origin: a browser-based MCP client reads them before it has any credential.
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { PRM_PATH, protectedResourceMetadata } from '../../auth/oauth/resource.js';
import { MCP_PRM_PATH } from './paths.js';

export function registerResourceMetadataRoutes(router: Router, origin: () => string): void {
  const serve = (kind: 'mcp' | 'rest') => (ctx: Context): void => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = protectedResourceMetadata(origin(), kind);
  };
  router.get(PRM_PATH, serve('rest'));
  router.get(MCP_PRM_PATH, serve('mcp'));
}
