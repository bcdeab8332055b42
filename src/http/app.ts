// The Koa application: access log (request id, latency), error mapping and the shutdown drain first, then the door
// middleware, then the routes. The doors parse, authorize, call the application layer (src/app), serialize; they never
// compute (DESIGN.md).
import Koa from 'koa';
import { Router } from '@koa/router';
import type { ServiceContext } from '../app/context.js';
import { openDoorServices } from '../app/door-services.js';
import { createServiceMetrics } from '../app/metrics.js';
import { buildOperations, type OperationFn } from '../app/operations.js';
import type { Drain } from './drain.js';
import { errorMiddleware } from './errors.js';
import { registerKeysPageRoute } from './keys-page-route.js';
import { registerMetricsRoute } from './metrics-route.js';
import { accessLogMiddleware } from './middleware/access-log.js';
import { conditionalGet } from './middleware/conditional-get.js';
import { mountDoorMiddleware, registerOperationRoutes } from './doors.js';
import { registerToolRoutes, type ToolDoor } from './tool-route.js';
import { registerWebAssetRoutes } from './web-assets.js';
import { serviceOrigin } from './oauth/challenge.js';
import { registerResourceMetadataRoutes } from './oauth/metadata-route.js';
import { authorizationServerDoor } from './oauth/door.js';

/** The tool door over the same operations (server.ts passes mcp's): http never imports mcp. `drain`: the server's. */
export type AppOptions = { toolDoor?: (operations: ReadonlyMap<string, OperationFn>) => ToolDoor; drain?: Drain };

export function createApp(svc: ServiceContext, opts: AppOptions = {}): Koa {
  const app = new Koa({ proxy: svc.config.trustProxy });
  app.silent = true;
  const metrics = (svc.metrics ??= createServiceMetrics(svc));
  app.use(accessLogMiddleware({ log: svc.log, metrics }));
  app.use(errorMiddleware((msg, extra) => svc.log.error(msg, extra)));
  if (opts.drain) app.use(opts.drain.middleware);
  app.use(conditionalGet); // answers with an ETag (the map's layers and assets) become 304s when unchanged
  const doors = openDoorServices(svc);
  const operations = buildOperations(svc, doors);
  const authorizationServer = authorizationServerDoor(svc, doors.keys);
  mountDoorMiddleware(app, svc, doors, authorizationServer.accessTokens);
  app.use(authorizationServer.middleware);
  // Exact matching: the canonical-path guard (doors.ts) already refused every other spelling, so the router and the
  // guards before it agree on what a path names.
  const router = new Router({ sensitive: true, strict: true });
  const tools = opts.toolDoor?.(operations);
  if (tools) registerToolRoutes(router, doors, tools, () => serviceOrigin(svc));
  registerResourceMetadataRoutes(router, () => serviceOrigin(svc));
  // at shutdown: end tool sessions, then write the audit's last batch
  svc.closeHooks?.push(async () => tools?.closeAll(), () => doors.audit.close());
  registerOperationRoutes(router, operations, doors, svc.shutdown);
  registerKeysPageRoute(router, { doors, tokens: doors.keysPageTokens, origin: () => serviceOrigin(svc), now: () => svc.now().getTime() });
  registerMetricsRoute(router, metrics, svc.config.writeSecret);
  registerWebAssetRoutes(router, svc.config.rootDir);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
