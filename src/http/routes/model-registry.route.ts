// GET /api/model-registry: current champion, its immutable artifact digest, the promotion-gate summary and the
// rollback pointer (spec Versioning). Read-only; the calibration job writes the registry.
import type { Router } from '@koa/router';
import { modelRegistryDocument, openModelRegistry } from '../../registry/model-registry.js';
import type { ServiceContext } from '../context.js';

export function registerModelRegistryRoutes(router: Router, svc: ServiceContext): void {
  const registry = openModelRegistry(svc.store);
  router.get('/api/model-registry', (ctx) => {
    ctx.body = modelRegistryDocument(registry);
  });
}
