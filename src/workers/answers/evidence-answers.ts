// The evidence answers of an Appraisal: get_comps (the served valuation's comps, accepted and rejected, dispersion,
// interval), risk_report and /api/property. Formatting only; every number comes from the one served valuation.
import { NO_CONFIDENT_COMPS_TEXT } from '../../contracts/common.js';
import type { CompsOutput, PropertyOutput, RiskReportOutput } from '../../contracts/tools.js';
import { DISCLOSURE } from '../../contracts/valuation.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { MODEL_VERSIONS } from '../../registry/versions.js';
import type { RiskReport } from '../../risk/report.js';
import { fsdTier } from '../../valuation/decide/ladder-confidence.js';
import type { TractSignals } from '../../pulse/signals.js';
import type { Appraisal } from './appraise.js';
import { buildPropertyResponse } from './underwrite-response.js';

const meta = (a: Appraisal, asOf: string) => ({
  as_of: a.valuation?.as_of ?? asOf,
  model_versions: { ...MODEL_VERSIONS, ...(a.valuation ? { model: a.valuation.model_version } : {}) },
  confidence: a.valuation ? (a.valuation.arv.confidence_p10 ?? a.valuation.arv.confidence ?? null) : null,
});

/** get_comps from the served valuation: the same value, low, high, method, interval and fallback chain as every door. */
export function compsAnswerOf(a: Appraisal, asOf: string): CompsOutput {
  const v = a.valuation;
  const e = a.evidence;
  const arv = v?.arv ?? null;
  const range = arv && arv.low !== null && arv.high !== null ? { low: arv.low, high: arv.high } : null;
  const fsd = e?.fsdPct ?? null;
  return {
    ...meta(a, asOf),
    disclosure: DISCLOSURE,
    refusal: a.refusal ?? (range === null && arv?.value == null ? { code: 'no_confident_comps', message: NO_CONFIDENT_COMPS_TEXT } : null),
    subject: a.subject,
    segment: e?.segment ?? null,
    outcome: e?.outcome ?? null,
    method: arv?.method ?? null,
    tier: arv?.method_tier ?? null,
    value: arv?.value ?? null,
    interval: range,
    calibrated_interval: arv?.interval ?? null,
    suppression_reason: arv?.suppression_reason ?? null,
    range_reason: arv?.range_reason ?? null,
    ladder_step: e?.ladderStep ?? null,
    dispersion: fsd,
    dispersion_detail: { fsd_pct: fsd, fsd_tier: fsd === null ? null : fsdTier(fsd), gate_pct: COMP_POLICY.v.dispersion_gate * 100 },
    comps_used: e?.accepted ?? [],
    comps_rejected: e?.rejected ?? [],
    flip_pairs_summary: e?.flipSummary ?? null,
    prior_sale: arv?.prior_sale ?? null,
    time_index_note: e?.timeIndexNote ?? null,
    fallback_chain: v?.artifact?.fallback_chain ?? [],
    inputs_hash: v?.inputs_hash ?? null,
  };
}

/** risk_report: the report of the served valuation (or, units unknown, of the subject alone with the gaps named). */
export function riskAnswerOf(a: Appraisal, asOf: string): RiskReportOutput {
  const r = a.risk as RiskReport;
  return {
    ...meta(a, asOf),
    risk_score: r.score,
    band: r.band,
    flags: r.flags.map((f) => ({ flag: f.code, ...f })),
    excluded_inputs: r.excluded_inputs,
    disclosure: DISCLOSURE,
    subject: a.subject as NonNullable<Appraisal['subject']>,
    valuation_refusal: a.refusal,
  };
}

/** /api/property: the valuation under investor.*, or the refusal with the subject as far as it was resolved. */
export function propertyAnswerOf(a: Appraisal, tract: TractSignals | null | undefined, echo: Record<string, unknown>): PropertyOutput {
  if (a.refusal || !a.valuation) return { property: a.subject ?? echo, investor: { valuation: null, risk: null, tract: null }, refusal: a.refusal, disclosure: DISCLOSURE };
  return buildPropertyResponse(a.valuation, { tract, risk: a.risk });
}
