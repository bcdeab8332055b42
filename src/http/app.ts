// The Koa application: request id + error mapping first, then the routes. The doors parse, authorize, call, serialize;
// they never compute (DESIGN.md). Everything the routes need arrives in the ServiceContext.
import Koa from 'koa';
import { Router } from '@koa/router';
import { errorMiddleware } from './errors.js';
import { buildOperationDeps, openDoorServices } from '../app/deps.js';
import { mountDoorMiddleware, registerOperationRoutes } from './doors.js';
import { registerMcpRoutes } from '../mcp/http.js';
import type { ServiceContext } from '../app/context.js';
import { registerHealthRoutes } from './routes/health.route.js';
import { registerTractRoutes } from './routes/tracts.route.js';
import { registerModelRegistryRoutes } from './routes/model-registry.route.js';
import { registerScorecardRoutes } from './routes/scorecard.route.js';

export function createApp(svc: ServiceContext): Koa {
  const app = new Koa({ proxy: svc.config.trustProxy });
  app.silent = true;
  app.use(errorMiddleware((msg, extra) => svc.log.error(msg, extra)));
  const doors = openDoorServices(svc);
  const deps = buildOperationDeps(svc, doors);
  mountDoorMiddleware(app, svc, doors);
  const router = new Router();
  registerHealthRoutes(router, svc);
  registerTractRoutes(router, svc);
  registerModelRegistryRoutes(router, svc);
  registerScorecardRoutes(router, svc);
  // After the dedicated routes: /mcp, /api/events, then every other operation of contracts/operations.ts.
  const mcpSessions = registerMcpRoutes(router, svc, doors, deps);
  // at shutdown: end MCP sessions, then write the audit's last batch
  svc.closeHooks?.push(() => mcpSessions.closeAll(), () => doors.audit.flush());
  registerOperationRoutes(router, deps, doors);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
