// GET /api/tracts/chicago: every mapped tract; the body is built once per hour and served from memory between.
import type { Router } from '@koa/router';
import type { TractList } from '../../contracts/tracts.js';
import type { ServiceContext } from '../../app/context.js';
import { tractListWithSignals } from '../../pulse/index.js';

export const TRACT_CACHE_SECONDS = 3600;

export function registerTractRoutes(router: Router, svc: ServiceContext): void {
  let cached: { body: TractList; builtAtMs: number; snapshotId: string | null } | null = null;
  router.get('/api/tracts/chicago', (ctx) => {
    const nowMs = svc.now().getTime();
    const snapshotId = svc.store.currentSnapshotId();
    if (!cached || nowMs - cached.builtAtMs >= TRACT_CACHE_SECONDS * 1000 || cached.snapshotId !== snapshotId) {
      cached = { body: tractListWithSignals(svc.store), builtAtMs: nowMs, snapshotId };
    }
    const ageSec = Math.floor((nowMs - cached.builtAtMs) / 1000);
    ctx.set('Cache-Control', `public, max-age=${Math.max(0, TRACT_CACHE_SECONDS - ageSec)}`);
    ctx.body = cached.body;
  });
}
