// Public surface of the risk domain: riskReport (pure, from gathered inputs), riskInputsFor (evidence of a valued
// subject) and riskReportFor (the risk_report tool: value the subject, gather, report).
import { z } from 'zod';
import { RiskReportInputSchema } from '../contracts/inputs.js';
import { DISCLOSURE, type Valuation } from '../contracts/valuation.js';
import { AppError } from '../errors/app-error.js';
import { MODEL_VERSIONS } from '../registry/versions.js';
import { valueProperty } from '../valuation/value.js';
import type { ValuationContext } from '../valuation/value-context.js';
import { riskInputsFor, type RiskExtras } from './inputs.js';
import { riskReport, type RiskReport } from './report.js';

export { riskReport, bandOf, RISK_FLAGS, RISK_INPUT_KEYS, type RiskReport, type RiskInputs, type RiskFlag, type RiskBand, type BasementType } from './report.js';
export { riskInputsFor, lastDeedOf, type RiskExtras } from './inputs.js';
export { distressNear } from './distress-grid.js';

/** The contract's risk_report input fields (one definition, contracts/inputs.ts), strict: unknown keys are refused. */
export const RiskParamsSchema = z.strictObject(RiskReportInputSchema.shape);
export type RiskParams = z.infer<typeof RiskParamsSchema>;

/** risk_report answer (contracts/tools.ts RiskReportOutputSchema, plus the full flag records and the subject). */
export type RiskReportResponse = {
  as_of: string;
  model_versions: typeof MODEL_VERSIONS;
  /** The ARV confidence of the valuation the report read (null when none). */
  confidence: number | null;
  risk_score: number;
  band: RiskReport['band'];
  flags: Array<RiskReport['flags'][number] & { flag: string }>;
  excluded_inputs: string;
  disclosure: string;
  subject: Valuation['subject'];
};

/** The risk report of a valuation already computed (underwrite/property responses embed it). */
export function riskOfValuation(v: Valuation, ctx: Pick<ValuationContext, 'sales' | 'parcelSales' | 'subjects'>, extras: RiskExtras = {}): RiskReport {
  return riskReport(riskInputsFor(v, ctx, extras));
}

/** risk_report tool: values the subject (address or lat/lon), then reports. Bad input → validation_failed. */
export function riskReportFor(ctx: ValuationContext, raw: unknown): RiskReportResponse {
  const r = RiskParamsSchema.safeParse(raw);
  if (!r.success) throw new AppError('validation_failed', `risk_report: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  const p = r.data;
  if (p.address === undefined && (p.lat === undefined || p.lon === undefined)) throw new AppError('validation_failed', 'risk_report needs an address or both lat and lon');
  const v = valueProperty({ address: p.address ?? null, lat: p.lat ?? null, lon: p.lon ?? null, units: p.listing_units ?? null, yearBuilt: p.year_built ?? null }, ctx);
  const risk = riskOfValuation(v, ctx, { listingUnits: p.listing_units ?? null, yearBuilt: p.year_built ?? null });
  return {
    as_of: v.as_of,
    model_versions: MODEL_VERSIONS,
    confidence: v.arv.confidence_p10 ?? v.arv.confidence ?? null,
    risk_score: risk.score,
    band: risk.band,
    flags: risk.flags.map((f) => ({ flag: f.code, ...f })),
    excluded_inputs: risk.excluded_inputs,
    disclosure: DISCLOSURE,
    subject: v.subject,
  };
}
