// One subject's valuation with its underwriting and risk report (the parts of /api/underwrite computed where the
// valuation context lives: a worker, or in-process), and the main-thread assembly with the tract context.
import type { Valuation } from '../../contracts/valuation.js';
import { tractSignalsFor } from '../../pulse/index.js';
import { riskOfValuation } from '../../risk/index.js';
import type { RiskReport } from '../../risk/report.js';
import type { Store } from '../../store/store.js';
import { underwrite, type UnderwriteResult } from '../../underwriting/underwrite.js';
import type { FinancingType, Strategy } from '../../underwriting/types.js';
import { valueProperty, type ValueInput } from '../../valuation/value.js';
import type { ValuationContext } from '../../valuation/value-context.js';
import { underwriteInputOf } from '../../scoring/score-subject.js';
import { buildPropertyResponse, buildUnderwriteResponse } from './underwrite-response.js';

export type BundleRequest = {
  input: ValueInput;
  strategy?: Strategy;
  financing?: FinancingType | null;
  /** Raw custom_assumptions (validated strictly by underwriting). */
  assumptions?: unknown;
  horizonYears?: number;
  listingUnits?: number | null;
  /** Monthly HOA dues and self-management (v1 `underwrite` tool parameters). */
  hoa?: number | null;
  mgmtSelf?: boolean;
};
export type UnderwriteBundle = { valuation: Valuation; underwriting: UnderwriteResult; risk: RiskReport };

export function underwriteBundleOf(ctx: ValuationContext, p: BundleRequest): UnderwriteBundle {
  const valuation = valueProperty(p.input, ctx);
  const muni = ctx.subjects.tracts.find((t) => t.geoid === valuation.subject.tract_geoid)?.muni ?? '';
  const base = underwriteInputOf(valuation, muni.toLowerCase() === 'chicago', p.input.price ?? null);
  const underwriting = underwrite({ ...base, strategy: p.strategy ?? 'brrrr', financing: p.financing ?? null, assumptions: p.assumptions, horizonYears: p.horizonYears, hoa: p.hoa ?? null, mgmtSelf: p.mgmtSelf, ownerOccupied: p.input.ownerOccupied ?? undefined });
  return { valuation, underwriting, risk: riskOfValuation(valuation, ctx, { listingUnits: p.listingUnits ?? null }) };
}

/** The /api/underwrite body from a bundle (worker result) plus the tract signals of the store (main thread, cached). */
export function underwriteResponseOf(store: Store, b: UnderwriteBundle): ReturnType<typeof buildUnderwriteResponse> {
  const geoid = b.valuation.subject.tract_geoid;
  const tract = geoid ? tractSignalsFor(store).byGeoid.get(geoid) : null;
  return buildUnderwriteResponse(b.valuation, { tract, risk: b.risk, underwriting: b.underwriting });
}

/** The /api/property body from a bundle: the valuation under investor.*, with risk and tract context. */
export function propertyResponseOf(store: Store, b: Pick<UnderwriteBundle, 'valuation' | 'risk'>): ReturnType<typeof buildPropertyResponse> {
  const geoid = b.valuation.subject.tract_geoid;
  return buildPropertyResponse(b.valuation, { tract: geoid ? tractSignalsFor(store).byGeoid.get(geoid) : null, risk: b.risk });
}
