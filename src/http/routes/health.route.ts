// GET /api/health: ok only when both storage bindings answer (the LMDB environment and the current sales snapshot).
import type { Router } from '@koa/router';
import type { Health } from '../../contracts/health.js';
import { MODEL_VERSION } from '../../registry/versions.js';
import type { ServiceContext } from '../../app/context.js';

export function readHealth(svc: ServiceContext): Health {
  const lmdb = svc.store.checkEnv();
  const snapshot = svc.store.checkSnapshot();
  const listings = svc.store.listingsSummary(MODEL_VERSION);
  return {
    ok: lmdb.ok && snapshot.ok,
    bindings: { lmdb, sales_snapshot: snapshot },
    last_run: svc.store.lastRun(),
    active_listings: listings.active,
    stale_model_rows: listings.staleModelRows,
    model_version: MODEL_VERSION,
    corpus_vintage: svc.store.corpusVintage(),
  };
}

export function registerHealthRoutes(router: Router, svc: ServiceContext): void {
  router.get('/api/health', (ctx) => {
    const health = readHealth(svc);
    ctx.status = health.ok ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = health;
  });
}
