// GET /api/underwrite?lat&lon&price&units: one valuation object plus tract, arv_source, comp_arv (only when the legacy
// gates pass on a point), risk, underwrite and read; computed and serialized in the worker pool
// (`underwriteResponseJson` task). The query was validated against the contract's schema by the operation guard.
import type { Router } from '@koa/router';
import type { UnderwriteQuery } from '../../contracts/inputs.js';
import { UnderwriteQuerySchema } from '../../contracts/inputs.js';
import { AppError } from '../../errors/app-error.js';
import type { ServiceContext } from '../context.js';
import { validationError } from '../errors.js';

export function registerUnderwriteRoutes(router: Router, svc: ServiceContext): void {
  router.get('/api/underwrite', async (ctx) => {
    const q = (ctx.state.input as UnderwriteQuery | undefined) ?? parseQuery(ctx.query);
    if (!svc.valuation) throw new AppError('corpus_unavailable', 'the valuation service is not running');
    // serialized where it is computed: the main thread only forwards the text
    ctx.type = 'application/json';
    ctx.body = await svc.valuation.underwriteResponseJson({ input: { lat: q.lat, lon: q.lon, price: q.price, units: q.units }, listingUnits: q.units });
  });
}

/** Only when the route is mounted without the door middleware (which validates and sets ctx.state.input). */
function parseQuery(query: unknown): UnderwriteQuery {
  const parsed = UnderwriteQuerySchema.safeParse(query);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}
