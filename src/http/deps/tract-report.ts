// get_tract_report: every labeled signal of one mapped tract, from the stored tract record. Tract scores are a
// location screen only, never a property score; signals whose engines have not run are null, never invented.
import type { TractReportOutput } from '../../contracts/tools.js';
import type { TractRecord } from '../../contracts/tracts.js';
import { AppError } from '../../errors/app-error.js';
import { MODEL_VERSIONS } from '../../registry/versions.js';

const LABELS: ReadonlyArray<[keyof TractRecord, string]> = [
  ['flip_score', 'Flip location score (county percentile 0-100)'],
  ['brrrr_score', 'BRRRR location score (county percentile 0-100)'],
  ['effective_tax_rate', 'Effective property-tax rate (fraction of market value per year)'],
  ['reassessment_shock', 'Reassessment shock (expected tax change after purchase, fraction)'],
  ['reassessment_status', 'Reassessment status of the township'],
  ['section8_gap', 'Section 8 gap: SAFMR minus market rent (USD per month)'],
  ['safmr_2br', 'Small Area Fair Market Rent, 2 bedrooms (USD per month)'],
];

export function tractReport(tract: TractRecord | undefined, geoid: string, now: Date): TractReportOutput {
  if (!tract) throw new AppError('tract_not_found', `no mapped Cook or Lake tract has GEOID ${geoid}`);
  const signals = LABELS.map(([name, label]) => ({ name, label, value: tract[name] as number | string | null }));
  return {
    as_of: now.toISOString(),
    model_versions: { ...MODEL_VERSIONS },
    // A tract record carries no estimate of its own uncertainty; signals are published values or null.
    confidence: null,
    tract,
    signals,
    note: 'Tract opportunity is a location screen only and never the property score; null signals have not been computed in this build.',
  };
}
