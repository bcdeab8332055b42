// GET /api/underwrite and /api/property payloads around one valuation: tract context, the legacy arv_source /
// comp_arv summary, the risk report, the point-only underwrite block and a one-sentence read. Formatting only:
// every number comes from the valuation, the underwriting result, the risk report or the tract signals.
//
// arv_source rule (decided here, per the spec's two rules together): `real comps (N sales, conf C)` only when the
// legacy gates pass (mean comp similarity ≥ 0.45, ≥ 4 comps, fsd ≤ 45%, legacy confidence ≥ 55) AND the ladder made
// the ARV a point. comp_arv carries a base value, which is a point: a range-only, area-context or suppressed
// valuation must never render one, so those read `tract heuristic` and omit comp_arv even when the legacy gates pass.
import type { PropertyOutput, UnderwriteRestBody } from '../../contracts/tools.js';
import type { TractSummary, UnderwriteBlock } from '../../contracts/underwrite.js';
import type { Valuation } from '../../contracts/valuation.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import type { RiskReport } from '../../risk/report.js';
import { MISSING_INPUTS, type UnderwriteResult } from '../../underwriting/underwrite.js';
import type { StrategyScores } from './appraise.js';
import { pointArvUsd } from '../../valuation/artifact.js';
import type { TractSignals } from '../../pulse/signals.js';

const C = COMP_POLICY.v;

export type LegacyGate = { pass: boolean; n: number; meanSimilarity: number | null; fsdPct: number | null; confidence: number | null; failed: string[] };

/** The legacy /api/underwrite comp gates on the served comps (thresholds in the comp_policy group). */
export function legacyCompGate(v: Valuation): LegacyGate {
  const comps = v.arv.comps ?? [];
  const n = v.arv.n_comps ?? comps.length;
  const meanSimilarity = comps.length > 0 ? comps.reduce((s, c) => s + c.similarity, 0) / comps.length : null;
  const fsdPct = v.arv.fsd ?? null;
  const confidence = v.arv.confidence;
  const failed: string[] = [];
  if (meanSimilarity === null || meanSimilarity < C.legacy_min_similarity) failed.push('similarity');
  if (n < C.legacy_min_comps) failed.push('comp_count');
  if (fsdPct === null || fsdPct > C.legacy_dispersion_gate * 100) failed.push('dispersion');
  if (confidence === null || confidence < C.legacy_min_confidence) failed.push('confidence');
  return { pass: failed.length === 0, n, meanSimilarity, fsdPct, confidence, failed };
}

export function tractSummary(t: TractSignals | null | undefined): TractSummary | null {
  if (!t) return null;
  return { geoid: t.geoid, muni: t.muni, flip_score: t.scores.flip, brrrr_score: t.scores.brrrr, effective_tax_rate: t.effective_tax_rate, safmr_2br: t.safmr_2br, reassessment_status: t.reassessment_status };
}

/** What the caller could pass to unlock the unscored figures (empty when nothing is missing or no input would help). */
export function missingInputsOf(reason: string | null): string[] {
  return reason === null ? [] : [...(MISSING_INPUTS[reason] ?? [])];
}

/** The hold at the purchase price: NOI, DSCR and cash-on-cash whenever they are known (also without a rehab figure). */
export function holdFigures(uw: UnderwriteResult | null): UnderwriteBlock['hold'] {
  const h = uw?.strategies.hold.economics;
  if (!h || h.noi === null) return null;
  return { noi: h.noi, dscr: h.dscr, cash_on_cash: h.cash_on_cash, rehab_basis: h.rehab_basis };
}

/**
 * The underwrite block: ARV, both offers, DSCR, economics_factor, strategy scores and the assumptions; every number
 * null unless the valuation is a point, and a figure that needs a missing input null with `missing_inputs` naming it.
 */
export function underwriteBlock(v: Valuation, uw: UnderwriteResult | null, scores: StrategyScores | null): UnderwriteBlock {
  const arv = pointArvUsd(v);
  const e = uw?.economics;
  const scored = arv !== null && uw !== null && uw.scored;
  const offerOf = (st: 'flip' | 'brrrr', k: 'max_offer' | 'brrrr_offer'): number | null =>
    arv !== null && uw !== null && uw.strategies[st].unscored_reason === null ? uw.strategies[st].economics[k] : null;
  const unscored = arv === null ? (v.display?.unscored_reason ?? 'valuation_not_point') : (uw?.unscored_reason ?? (uw === null ? 'not_underwritten' : null));
  return {
    strategy: uw?.strategy ?? null,
    arv,
    max_offer: offerOf('flip', 'max_offer'),
    brrrr_offer: offerOf('brrrr', 'brrrr_offer'),
    dscr: scored ? (e?.dscr ?? null) : null,
    economics_factor: scored ? (e?.economics_factor ?? null) : null,
    unscored_reason: scored ? null : unscored,
    missing_inputs: scored || arv === null ? [] : missingInputsOf(unscored),
    hold: arv === null ? null : holdFigures(uw),
    strategy_scores: arv === null ? null : (scores?.percentiles ?? null),
    assumptions: uw?.assumptions ?? null,
  };
}

const usd = (x: number): string => `$${Math.round(x).toLocaleString('en-US')}`;

/** One-sentence verdict; never states a number the valuation does not allow. */
export function readOf(v: Valuation, block: UnderwriteBlock, risk: RiskReport | null): string {
  const riskPart = risk ? `; risk ${risk.band} (${risk.score})` : '';
  const outcome = v.display?.outcome ?? (v.arv.value === null ? 'suppressed' : 'range');
  if (outcome === 'suppressed') return `Cannot value — no confident comps (${v.arv.suppression_reason ?? 'suppressed'}); no offer or score is produced${riskPart}.`;
  if (outcome === 'area_context') return `Area estimate only — not property-specific; no offer, DSCR or score is produced${riskPart}.`;
  if (block.arv === null) {
    const range = v.arv.low !== null && v.arv.high !== null ? ` ${usd(v.arv.low)}–${usd(v.arv.high)}` : '';
    return `Range only${range} (${v.arv.range_reason ?? 'not point-supported'}): no offer, DSCR or score is produced${riskPart}.`;
  }
  if (block.unscored_reason !== null) {
    const pass = block.missing_inputs.length > 0 ? `; pass ${block.missing_inputs.join(' or ')} for the full pro-forma` : '';
    return `ARV ${usd(block.arv)} (point) but the ${block.strategy ?? 'chosen'} pro-forma is unscored (${block.unscored_reason}${pass})${riskPart}.`;
  }
  const dscr = block.dscr === null ? '' : `, DSCR ${block.dscr.toFixed(2)}`;
  const offer = block.brrrr_offer === null ? '' : `, BRRRR offer ${usd(block.brrrr_offer)}`;
  const verdict = (block.economics_factor ?? 0) > 0 ? 'clears its gates' : 'fails its gates at this price';
  return `ARV ${usd(block.arv)} from ${v.arv.n_comps ?? v.arv.comps?.length ?? 0} comps${offer}${dscr}: ${block.strategy} ${verdict}${riskPart}.`;
}

export type UnderwriteExtras = { tract: TractSignals | null | undefined; risk: RiskReport | null; underwriting: UnderwriteResult | null; scores: StrategyScores | null };

/** The /api/underwrite body: the valuation object plus tract, arv_source, comp_arv (only when allowed), risk, underwrite, read. */
export function buildUnderwriteResponse(v: Valuation, x: UnderwriteExtras): UnderwriteRestBody {
  const gate = legacyCompGate(v);
  const point = pointArvUsd(v) !== null;
  const real = gate.pass && point;
  const block = underwriteBlock(v, x.underwriting, x.scores);
  const out: UnderwriteRestBody = {
    ...v,
    tract: tractSummary(x.tract),
    arv_source: real ? `real comps (${gate.n} sales, conf ${Math.round(gate.confidence as number)})` : 'tract heuristic',
    risk: x.risk,
    underwrite: block,
    read: readOf(v, block, x.risk),
  };
  if (real) out.comp_arv = { base: v.arv.value, conservative: v.arv.low, aggressive: v.arv.high, comps: v.arv.comps ?? [] };
  return out;
}

/** /api/property: the property record with the valuation (and its risk and tract context) under `investor.*`. */
export function buildPropertyResponse(v: Valuation, x: Pick<UnderwriteExtras, 'tract' | 'risk'>): PropertyOutput {
  return { property: v.subject, investor: { valuation: v, risk: x.risk, tract: tractSummary(x.tract) }, refusal: null, disclosure: v.disclosure };
}
