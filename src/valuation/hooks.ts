// The shape of the valuation's optional evidence providers (value-hooks.ts builds the defaults, value-context.ts
// holds them). Types only, so that neither of those two modules needs the other for it.
import type { Rent } from '../contracts/rent.js';
import type { AreaContextEvidence, HedonicEvidence } from './decide/ladder-evidence.js';
import type { RentFigures } from './economics/rent.js';
import type { ResolvedSubject } from './subject/subject.js';

/**
 * Optional evidence providers of other modules (Tier 2, area context, rent). Absent → that evidence is null and the
 * ladder falls through to the next row; rent falls back to an explicitly unestimated record.
 */
export type ValuationHooks = {
  tier2?: (s: ResolvedSubject, asOfDay: number) => HedonicEvidence | null;
  areaContext?: (s: ResolvedSubject, asOfDay: number) => AreaContextEvidence | null;
  /** Tier-2 model value for the approaches-disagree check beside a Tier-1 value. */
  modelValue?: (s: ResolvedSubject, asOfDay: number) => number | null;
  rent?: (s: ResolvedSubject, asOfIso: string) => Rent;
  /** The money of `rent` alone (rent.ts rentFigures: same inputs, same numbers), for bulk scoring; null without SAFMR. */
  rentFigures?: (s: ResolvedSubject) => RentFigures | null;
};
