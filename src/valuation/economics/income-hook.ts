// Wires the income-approach cross-check (income.ts) into a valuation: noi_implied_value, why it is null when it is,
// and its divergence warning. Only a point-actionable valuation gets one: the spec derives no NOI from range-only,
// area-context or suppressed output.
import type { Rent } from '../../contracts/rent.js';
import type { Tax } from '../../contracts/tax.js';
import { incomeCrossCheck, type IncomeNullReason } from './income.js';
import type { LadderDecision } from '../decide/ladder.js';
import { isCityMuni } from '../decide/segment.js';
import type { ResolvedSubject } from '../subject/subject.js';

export type ValuationIncome = { noiImpliedValue: number | null; nullReason: IncomeNullReason | null; warnings: string[] };

const NOT_POINT: ValuationIncome = { noiImpliedValue: null, nullReason: 'valuation_not_point', warnings: [] };

/**
 * NOI value of the whole building at its stabilized (post-reno) contract rent, compared with the comp ARV point.
 * The forward tax (predictive_annual, on the ARV) is the buyer's post-reno bill; current_annual when none.
 */
export function valuationIncome(r: ResolvedSubject, decision: LadderDecision, rent: Rent, tax: Tax): ValuationIncome {
  if (!decision.pointActionable || decision.arv.value === null) return NOT_POINT;
  const check = incomeCrossCheck({
    rentMonthlyUsd: rent.stabilized_post_reno?.value ?? null,
    units: r.subject.units ?? null,
    taxAnnualUsd: tax.predictive_annual ?? tax.current_annual ?? null,
    segment: r.segment,
    county: r.subject.county,
    isChicago: isCityMuni(r.tract?.muni),
    compArvUsd: decision.arv.value,
  });
  return { noiImpliedValue: check.noi_implied_value, nullReason: check.null_reason, warnings: check.warnings };
}
