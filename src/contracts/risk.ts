// The risk report (spec, Other records: risk report): a 0-100 score, a band and nine flags each with its reason.
// The risk domain produces exactly this shape (risk/report.ts types are inferred from here).
import { z } from 'zod';

export const RISK_FLAGS = [
  'tax_shock', 'tax_trap', 'basement_flood', 'distress_proximity', 'closing_friction', 'legal_unit_mismatch', 'appraisal_ceiling', 'vintage_stock', 'rent_model_uncertainty',
] as const;
export const RiskFlagCodeSchema = z.enum(RISK_FLAGS);
export type RiskFlagCode = z.infer<typeof RiskFlagCodeSchema>;

export const RISK_BANDS = ['low', 'moderate', 'high', 'severe'] as const;
export const RiskBandSchema = z.enum(RISK_BANDS);
export type RiskBand = z.infer<typeof RiskBandSchema>;

export const RiskFlagSchema = z.object({
  code: RiskFlagCodeSchema,
  flagged: z.boolean(),
  /** 0 when not flagged; 0.5 at the threshold rising to 1 at saturation. */
  severity: z.number().min(0).max(1),
  /** severity × the flag's weight (risk constants group). */
  points: z.number().min(0),
  /** Always set: why it is flagged, why not, or that there is no evidence. */
  reason: z.string(),
  evidence: z.enum(['observed', 'no_evidence']),
});
export type RiskFlag = z.infer<typeof RiskFlagSchema>;

export const RiskReportSchema = z.object({
  score: z.number().min(0).max(100),
  band: RiskBandSchema,
  flags: z.array(RiskFlagSchema),
  excluded_inputs: z.string(),
  registry_version: z.string(),
});
export type RiskReport = z.infer<typeof RiskReportSchema>;
