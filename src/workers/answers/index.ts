// The worker side of the valuation operations: an operation's validated input → the appraisal request it makes →
// the one Appraisal → that operation's contract answer. Every door (REST, MCP) reaches the valuation only through
// here, so the same subject gets the same valuation whichever operation asks.
import type * as I from '../../contracts/inputs.js';
import { DISCLOSURE } from '../../contracts/valuation.js';
import { MODEL_VERSIONS } from '../../registry/versions.js';
import { tractSignalsFor } from '../../pulse/index.js';
import type { Store } from '../../store/store.js';
import type { ServeFallbackConfig } from '../../valuation/fallback/serve.js';
import type { ValuationContext } from '../../valuation/value-context.js';
import { appraise, type AppraiseRequest } from './appraise.js';
import { compsAnswerOf, propertyAnswerOf, riskAnswerOf } from './evidence-answers.js';
import { aliasRequest, deepRequest, proFormaAssumptions, underwriteAnswerOf } from './underwrite-answer.js';
import { buildUnderwriteResponse } from './underwrite-response.js';

/** The operations answered by a worker, with the input each takes (already validated by the door). */
export type EngineInputs = {
  underwrite_rest: I.UnderwriteQuery;
  property: I.PropertyQuery;
  deep_underwrite_asset: I.DeepUnderwriteInput;
  underwrite: I.UnderwriteAliasInput;
  get_comps: I.CompsInput;
  risk_report: I.RiskReportInput;
};
export type EngineOp = keyof EngineInputs;

export type AnswerEnv = { store: Store; ctx: ValuationContext; chain: ServeFallbackConfig; listingsRun: string | null };

/** GET /api/underwrite: the four spec inputs and the `underwrite` tool's optional ones. */
export function restRequest(i: I.UnderwriteQuery): AppraiseRequest {
  const assumptions = proFormaAssumptions(i);
  return {
    subject: {
      lat: i.lat, lon: i.lon, price: i.price, units: i.units, propType: i.prop_type ?? null, beds: i.beds ?? null, sqft: i.sqft ?? null,
      yearBuilt: i.year_built ?? null, scope: i.scope ?? null, ownerOccupied: i.owner_occupied ?? null,
    },
    underwriting: { strategy: i.strategy, assumptions, hoa: i.hoa ?? null, mgmtSelf: i.mgmt_self },
    risk: { listingUnits: i.units },
  };
}

const subjectOf = (i: { property_id?: string; address?: string; lat?: number; lon?: number }) => ({
  propertyId: i.property_id ?? null, address: i.address ?? null, lat: i.lat ?? null, lon: i.lon ?? null,
});

function tractOf(env: AnswerEnv, geoid: string | null) {
  return geoid ? tractSignalsFor(env.store, env.ctx.snapshotId).byGeoid.get(geoid) : null;
}

/** One operation's answer. GET /api/underwrite's body comes back serialized (one string crosses the thread). */
export async function answerOf<Op extends EngineOp>(op: Op, input: EngineInputs[Op], env: AnswerEnv): Promise<unknown> {
  const run = (req: AppraiseRequest) => appraise(req, env.ctx, env.chain, env.listingsRun);
  const asOf = env.ctx.now().toISOString();
  switch (op) {
    case 'underwrite_rest': {
      const a = await run(restRequest(input as I.UnderwriteQuery));
      if (a.refusal || !a.valuation) return JSON.stringify({ as_of: asOf, model_versions: MODEL_VERSIONS, confidence: null, disclosure: DISCLOSURE, refusal: a.refusal });
      return JSON.stringify(buildUnderwriteResponse(a.valuation, { tract: tractOf(env, a.valuation.subject.tract_geoid), risk: a.risk, underwriting: a.underwriting, scores: a.scores }));
    }
    case 'property': {
      const i = input as I.PropertyQuery;
      const a = await run({ subject: { ...subjectOf(i), units: i.units ?? null, propType: i.prop_type ?? null }, risk: {} });
      return propertyAnswerOf(a, tractOf(env, a.valuation?.subject.tract_geoid ?? null), { ...i });
    }
    case 'deep_underwrite_asset': {
      const i = input as I.DeepUnderwriteInput;
      return underwriteAnswerOf(await run(deepRequest(i)), i.strategy, { ...i }, asOf);
    }
    case 'underwrite': {
      const i = input as I.UnderwriteAliasInput;
      return underwriteAnswerOf(await run(aliasRequest(i)), i.strategy, { ...i }, asOf);
    }
    case 'get_comps': {
      const i = input as I.CompsInput;
      return compsAnswerOf(await run({ subject: { ...subjectOf(i), units: i.units ?? null, propType: i.prop_type ?? null, defaultPropType: 'mf2_4' } }), asOf);
    }
    case 'risk_report': {
      const i = input as I.RiskReportInput;
      const a = await run({ subject: { address: i.address ?? null, lat: i.lat ?? null, lon: i.lon ?? null, units: i.listing_units ?? null, yearBuilt: i.year_built ?? null }, risk: { listingUnits: i.listing_units ?? null, yearBuilt: i.year_built ?? null }, unitsParam: 'listing_units' });
      return riskAnswerOf(a, asOf);
    }
  }
  throw new Error(`no worker answer for operation ${String(op)}`);
}
