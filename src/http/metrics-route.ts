// GET /metrics: the Prometheus text exposition of the service's registry (src/app/metrics.ts). An operator endpoint
// (spec: operator endpoints use the operator secret): `Authorization: Bearer <WRITE_SECRET>`, 401 while it is unset.
// Like every path it passed the canonical-path guard first; a scrape with the secret is exempt from the rate limit.
import type { Router } from '@koa/router';
import type { Context, Next } from 'koa';
import type { ServiceMetrics } from '../app/metrics.js';
import { requireOperator } from './middleware/operator.js';

export const METRICS_PATH = '/metrics';

export function registerMetricsRoute(router: Router, metrics: ServiceMetrics, writeSecret: string | null): void {
  const named = (ctx: Context, next: Next): Promise<void> => {
    ctx.state.operationId = 'metrics';
    return next();
  };
  router.get(METRICS_PATH, named, requireOperator(writeSecret), async (ctx) => {
    ctx.body = await metrics.registry.metrics();
    ctx.set({ 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' });
  });
}
