// Building condition from the CCAO characteristics alone (the rule below, first match wins). A sale's condition is
// inferred at ingest from much more (src/ingest/condition/: resale legs, hedonic position, flags weighed by the data);
// this rule serves where there is no sale to infer from: parcels never sold in the snapshot and open-data comps.
import { INGEST } from '../registry/groups/ingest.js';
import { CONDITION_CODE } from '../store/columns.js';

/** CCAO characteristics that bear on condition; NaN means the value is unknown. */
export type ConditionFacts = {
  /** char_yrblt, calendar year. */
  yearBuilt: number;
  /** char_renovation: 1 Yes, 0 No (vars_dict.csv, qu_renovation). */
  renovation: number;
  /** char_repair_cnd: 1 Above Average, 2 Average, 3 Below Average (vars_dict.csv, qu_state_of_repair). */
  repairCnd: number;
};

const REPAIR_BELOW_AVERAGE = 3; // CCAO code, not a tunable: vars_dict.csv char_repair_cnd 3 = "Below Average"
const RENOVATED_YES = 1; //        CCAO code: vars_dict.csv char_renovation 1 = "Yes"

/**
 * Condition code from characteristics, for a sale in `saleYear`:
 *   1. char_renovation = 1                                → renovated
 *   2. char_yrblt >= saleYear - new_build_max_age_years  → new
 *   3. char_repair_cnd = 3 (below average)               → distressed
 *   4. otherwise                                         → dated
 * No characteristics at all (null, or every field unknown) → unknown. When only the year built is known (Lake GIS
 * rows carry no repair or renovation facts), rule 2 may still say `new`; otherwise the condition stays unknown.
 */
export function deriveCondition(facts: ConditionFacts | null, saleYear: number): number {
  if (facts === null) return CONDITION_CODE.unknown;
  const { yearBuilt, renovation, repairCnd } = facts;
  const knowsRepairState = !Number.isNaN(renovation) || !Number.isNaN(repairCnd);
  if (renovation === RENOVATED_YES) return CONDITION_CODE.renovated;
  if (yearBuilt > 0 && yearBuilt >= saleYear - INGEST.v.new_build_max_age_years) return CONDITION_CODE.new;
  if (!knowsRepairState) return CONDITION_CODE.unknown;
  if (repairCnd === REPAIR_BELOW_AVERAGE) return CONDITION_CODE.distressed;
  return CONDITION_CODE.dated;
}

const CONDITION_TEXT: Record<string, number> = {
  distressed: CONDITION_CODE.distressed,
  dated: CONDITION_CODE.dated,
  renovated: CONDITION_CODE.renovated,
  new: CONDITION_CODE.new,
  unknown: CONDITION_CODE.unknown,
};

/** A condition word (distressed|dated|renovated|new, any case; empty → unknown), or null when it is not one. */
export function parseConditionWord(raw: string): number | null {
  const s = raw.trim().toLowerCase();
  if (s === '') return CONDITION_CODE.unknown;
  return CONDITION_TEXT[s] ?? null;
}
