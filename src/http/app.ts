// The Koa application: request id + error mapping first, then the routes. The doors parse, authorize, call, serialize;
// they never compute (DESIGN.md). Everything the routes need arrives in the ServiceContext.
import Koa from 'koa';
import { Router } from '@koa/router';
import { errorMiddleware } from './errors.js';
import type { ServiceContext } from './context.js';
import { registerHealthRoutes } from './routes/health.route.js';
import { registerTractRoutes } from './routes/tracts.route.js';

export function createApp(svc: ServiceContext): Koa {
  const app = new Koa({ proxy: svc.config.trustProxy });
  app.silent = true;
  app.use(errorMiddleware((msg, extra) => svc.log.error(msg, extra)));
  const router = new Router();
  registerHealthRoutes(router, svc);
  registerTractRoutes(router, svc);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
