// Public surface of the risk domain: riskReport (pure, from gathered inputs), riskInputsFor (evidence of a valued
// subject, or of a subject alone) and riskOfValuation. The risk_report tool answer is the worker's (workers/answers).
import type { Valuation } from '../contracts/valuation.js';
import type { ValuationContext } from '../valuation/value-context.js';
import { riskInputsFor, type RiskExtras } from './inputs.js';
import { riskReport, type RiskReport } from './report.js';

export { riskReport, bandOf, RISK_FLAGS, RISK_INPUT_KEYS, type RiskReport, type RiskInputs, type RiskFlag, type RiskBand, type BasementType } from './report.js';
export { riskInputsFor, riskInputsOf, evidenceOfValuation, lastDeedOf, type RiskExtras, type RiskValuationEvidence } from './inputs.js';
export { distressNear } from './distress-grid.js';

/** The risk report of a valuation already computed (underwrite/property responses embed it). */
export function riskOfValuation(v: Valuation, ctx: Pick<ValuationContext, 'sales' | 'parcelSales' | 'subjects'>, extras: RiskExtras = {}): RiskReport {
  return riskReport(riskInputsFor(v, ctx, extras));
}
