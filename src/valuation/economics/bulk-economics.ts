// The economics figures of a decided bulk valuation: rehab estimate, rent money and tax.predictive_annual, by the
// same functions and the same inputs as value.ts economicsPartsOf (rehab.ts, rent.ts rentFigures, tax.ts
// predictiveTaxAnnual), without the evidence records, texts and the appeal scenario no score reads. Bulk scoring calls
// it only for point valuations: without a point nothing downstream reads rent, tax or rehab (INV: no point, no economics).
import type { UnderwriteFigures } from '../../scoring/score-subject.js';
import { displayAsIs, pointUsdOf } from '../decide/ladder.js';
import { memoTaxReference, predictiveTaxAnnual, REFERENCE_TAX_SOURCE } from './tax.js';
import { rehabOf, type Decided, type ValueInput } from '../value.js';
import type { ValuationContext } from '../value-context.js';

/** One lookup per municipality and year for the whole process (the reference files are fixed). */
const TAX_REFERENCE = memoTaxReference(REFERENCE_TAX_SOURCE);

type Rent3 = Pick<UnderwriteFigures, 'rentMonthly' | 'rentStabilizedMonthly' | 'rentS8'>;

/** The rent money: the figures hook when wired (same numbers as the rent hook), else the rent record, else none. */
function rentOf(p: Decided, ctx: ValuationContext): Rent3 {
  if (ctx.hooks.rentFigures) {
    const f = ctx.hooks.rentFigures(p.r);
    return f ? { rentMonthly: f.asIsUsd, rentStabilizedMonthly: f.stabilizedUsd, rentS8: f.s8Usd } : { rentMonthly: null, rentStabilizedMonthly: null, rentS8: null };
  }
  const rent = ctx.hooks.rent?.(p.r, p.asOfIso);
  if (!rent) return { rentMonthly: null, rentStabilizedMonthly: null, rentS8: null };
  return { rentMonthly: rent.as_is_contract?.value ?? rent.market, rentStabilizedMonthly: rent.stabilized_post_reno?.value ?? rent.reno, rentS8: rent.s8 };
}

/** Underwriting figures of a decided valuation (as score-subject.ts underwriteInputOf reads them from a full one). */
export function bulkUnderwriteFigures(p: Decided, input: ValueInput, ctx: ValuationContext): UnderwriteFigures {
  const { r, decision } = p;
  const s = r.subject;
  const rehab = rehabOf(p, input);
  const pointUsd = pointUsdOf(decision);
  const areaUsd = decision.outcome === 'area_context' ? (decision.areaContext?.value ?? null) : null;
  const taxAnnual = predictiveTaxAnnual({
    county: s.county, municipality: r.tract?.muni ?? null, triad: null, classCode: null, priceUsd: s.price, asIsValueUsd: p.asIs.asIs?.value ?? null,
    arvUsd: pointUsd, arvPointActionable: pointUsd !== null, areaEstimateUsd: areaUsd, ownerOccupied: p.ownerOccupied, asOf: p.asOfIso,
  }, TAX_REFERENCE);
  return {
    arvUsd: pointUsd, unscoredReason: decision.unscoredReason, asIsUsd: p.asIs.asIs ? displayAsIs(p.asIs.asIs).value : null, subject: s,
    ...rentOf(p, ctx), taxAnnual, rehab: rehab.estimate,
  };
}
