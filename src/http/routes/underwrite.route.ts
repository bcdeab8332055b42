// GET /api/underwrite?lat&lon&price&units: one valuation object plus tract, arv_source, comp_arv (only when the legacy
// gates pass on a point), risk, underwrite and read; computed in the worker pool (`underwriteBundle` task).
import type { Router } from '@koa/router';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { underwriteResponseOf } from '../../listings/bundle.js';
import type { ServiceContext } from '../context.js';
import { validationError } from '../errors.js';

export const UnderwriteQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
  price: z.coerce.number().positive(),
  units: z.coerce.number().int().min(1).max(4),
});

export function registerUnderwriteRoutes(router: Router, svc: ServiceContext): void {
  router.get('/api/underwrite', async (ctx) => {
    const parsed = UnderwriteQuerySchema.safeParse(ctx.query);
    if (!parsed.success) throw validationError(parsed.error, 'underwrite query');
    if (!svc.valuation) throw new AppError('corpus_unavailable', 'the valuation service is not running');
    const q = parsed.data;
    const bundle = await svc.valuation.underwriteBundle({ input: { lat: q.lat, lon: q.lon, price: q.price, units: q.units }, listingUnits: q.units });
    ctx.body = underwriteResponseOf(svc.store, bundle);
  });
}
