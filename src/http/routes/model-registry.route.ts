// GET /api/model-registry: current champion, its immutable artifact digest, the promotion-gate summary and the
// rollback pointer (spec Versioning). Read-only; the calibration job writes the registry.
import type { Router } from '@koa/router';
import { modelRegistryDocument, openModelRegistry } from '../../registry/model-registry.js';
import { listHedonicModels, loadHedonicModel } from '../../valuation/hedonic/store.js';
import type { ServiceContext } from '../../app/context.js';

export function registerModelRegistryRoutes(router: Router, svc: ServiceContext): void {
  const registry = openModelRegistry(svc.store);
  router.get('/api/model-registry', (ctx) => {
    const current = loadHedonicModel(svc.store.env);
    ctx.body = modelRegistryDocument(registry, { current: current?.version ?? null, models: listHedonicModels(svc.store.env) });
  });
}
