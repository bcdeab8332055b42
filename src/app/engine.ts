// Engine bindings of the operations whose engine has landed: comps (getComps), property (value), the underwriting
// tools and GET /api/underwrite (underwriteBundle) and risk_report (riskReport), all through the valuation service's
// worker pool. A refusal (no Tier-1 value and no range) is an answer with the spec's text.
import { NO_CONFIDENT_COMPS_TEXT } from '../contracts/common.js';
import { JsonText, type EngineDeps } from '../contracts/operation-deps.js';
import { DISCLOSURE } from '../contracts/valuation.js';
import { MODEL_VERSIONS } from '../registry/versions.js';
import type { Store } from '../store/store.js';
import type { ValuationService } from './valuation-service.js';
import { aliasBundleRequest, deepBundleRequest, underwriteAnswerOf } from '../workers/answers/underwrite-answer.js';

type CompsResult = Awaited<ReturnType<ValuationService['getComps']>>;

export function compsAnswer(r: CompsResult) {
  const refused = r.value === null && r.range === null;
  return {
    as_of: r.as_of,
    model_versions: { ...MODEL_VERSIONS, model: r.model_version },
    confidence: r.confidence_p10 ?? r.confidence ?? null,
    disclosure: DISCLOSURE,
    refusal: refused ? { code: 'no_confident_comps' as const, message: NO_CONFIDENT_COMPS_TEXT } : null,
    method: r.method ?? null,
    tier: r.tier ?? null,
    interval: r.range,
    dispersion: r.dispersion.fsd_pct,
    comps_used: r.accepted as unknown as Record<string, unknown>[],
    comps_rejected: r.rejected as unknown as Record<string, unknown>[],
    outcome: r.outcome,
    suppression_reason: r.suppression_reason,
    range_reason: r.range_reason,
    dispersion_detail: r.dispersion,
    subject: r.subject,
    flip_pairs_summary: r.flip_pairs_summary,
  };
}

export function valuationEngine(v: ValuationService, store: Store): Partial<EngineDeps> {
  return {
    // assembled and serialized in the worker (task underwriteResponseJson): the main thread forwards the text
    underwriteRest: async (i, s) => new JsonText(await v.underwriteResponseJson({ input: { lat: i.lat, lon: i.lon, units: s.units, price: s.priceUsd }, listingUnits: s.units })),
    deepUnderwrite: async (i, s) => underwriteAnswerOf(await v.underwriteBundle(deepBundleRequest(i, s)), i.strategy, { ...i }),
    underwriteAlias: async (i, s) => underwriteAnswerOf(await v.underwriteBundle(aliasBundleRequest(i, s)), i.strategy, { ...i }, i.weights),
    riskReport: async (i) => v.riskReport(i),
    comps: async (i) => compsAnswer(await v.getComps({ address: i.address ?? null, lat: i.lat ?? null, lon: i.lon ?? null, propType: i.prop_type })),
    property: async (i, s) => {
      const valuation = await v.value({
        propertyId: i.property_id ?? null, address: i.address ?? null, lat: i.lat ?? null, lon: i.lon ?? null,
        units: s?.units ?? null, price: s?.priceUsd ?? null, propType: i.prop_type ?? null,
      });
      return { property: { ...valuation.subject }, investor: { valuation }, refusal: null, disclosure: DISCLOSURE };
    },
  };
}
