// Writes the inferred conditions into the joined sales table and carries them to the parcel table: a parcel's
// condition is that of its latest sale (as before inference), unless that sale's condition is unknown.
import { CONDITION_CODE } from '../../store/columns.js';
import type { ParcelTable } from '../loaders/join-parcels.js';
import type { SalesTable } from '../loaders/join-sales.js';
import { inferConditions, type ConditionSummary } from './infer.js';

export function applyInferredConditions(sales: SalesTable, parcels: ParcelTable): ConditionSummary {
  const { estimate, summary } = inferConditions(sales);
  sales.condition = estimate.condition;
  sales.conditionProb = estimate.prob;
  sales.conditionSource = estimate.source;
  // Rows come in (parcel, sale day) order (join-sales.ts): the last row of a parcel is its latest sale.
  for (let i = 0; i < sales.length; i++) {
    const last = i + 1 === sales.length || sales.parcelIdx[i + 1] !== sales.parcelIdx[i];
    if (last && sales.condition[i] !== CONDITION_CODE.unknown) parcels.condition[sales.parcelIdx[i]] = sales.condition[i];
  }
  return summary;
}
