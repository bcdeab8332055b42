// GET /api/metrics/scorecard: per-segment error and suppression rates from the champion's calibration (the
// out-of-time test half of its backtest) — the published error rates the valuation disclosure points to.
import type { Router } from '@koa/router';
import { openModelRegistry, scorecardDocument } from '../../registry/model-registry.js';
import type { ServiceContext } from '../../app/context.js';

export function registerScorecardRoutes(router: Router, svc: ServiceContext): void {
  const registry = openModelRegistry(svc.store);
  router.get('/api/metrics/scorecard', (ctx) => {
    ctx.body = scorecardDocument(registry);
  });
}
