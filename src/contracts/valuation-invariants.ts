// Cross-field rules of the valuation contract that a schema cannot state: INV-5 (tier 3 suppresses), INV-8 (as-is
// never in arv), range-only ⇒ no point, tier/method pairing, money ordering, comp caps, artifact parity.
import { isDeepStrictEqual } from 'node:util';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { VALUATION_DISPLAY } from '../registry/groups/valuation.js';
import { TIER1_METHODS, type Arv } from './arv.js';
import type { Valuation } from './valuation.js';

export type InvariantViolation = { rule: string; path: string; message: string };
type Push = (rule: string, path: string, message: string) => void;

const isTier1Method = (m: string): boolean => (TIER1_METHODS as readonly string[]).includes(m);
/** Relative slack for cap checks on values that went through floating-point multiplication. */
const FLOAT_SLACK = 1e-9;

/** Every rule a produced Valuation must satisfy; empty list = valid. Pure; never throws on a schema-valid input. */
export function assertValuationInvariants(v: Valuation): InvariantViolation[] {
  const out: InvariantViolation[] = [];
  const push: Push = (rule, path, message) => out.push({ rule, path, message });
  checkSuppressed(v.arv, push);
  checkTiers(v, push);
  checkRangeOnly(v, push);
  checkPoint(v.arv, push);
  checkMoneyOrder(v, push);
  checkComps(v.arv, push);
  checkAreaContext(v, push);
  checkDisplay(v, push);
  checkRentAliases(v, push);
  checkArtifact(v, push);
  return out;
}

function checkSuppressed(a: Arv, push: Push): void {
  if (a.method === 'suppressed') {
    if (a.value !== null || a.low !== null || a.high !== null) push('INV-5', 'arv', 'a suppressed arv carries no value, low or high');
    if (!a.suppression_reason) push('INV-5', 'arv.suppression_reason', 'a suppressed arv names its suppression_reason');
    if (a.method_tier !== 3 && a.method_tier !== null) push('INV-5', 'arv.method_tier', 'a suppressed arv is tier 3 (or null)');
    if (a.range_only === true || a.interval) push('INV-5', 'arv', 'a suppressed arv has no range and no interval');
  }
  if (a.method_tier === 3 && a.method !== 'suppressed') push('INV-5', 'arv.method', 'tier 3 suppresses rather than guesses');
  if (a.value === null && a.method !== 'suppressed' && a.range_only !== true) push('INV-5', 'arv.value', 'a null value is either suppressed or range-only');
}

function checkTiers(v: Valuation, push: Push): void {
  const a = v.arv;
  if (isTier1Method(a.method) && a.method_tier !== 1) push('TIER', 'arv.method_tier', `${a.method} is tier 1`);
  if (a.method === 'renovated_comps' && v.subject.county !== 'cook') push('TIER', 'arv.method', 'renovated_comps serves Cook subjects');
  if (a.method === 'lake_gis_comps' && v.subject.county !== 'lake') push('TIER', 'arv.method', 'lake_gis_comps serves Lake subjects');
  if (a.method === 'hedonic_v1') {
    if (a.method_tier !== 2) push('TIER', 'arv.method_tier', 'hedonic_v1 is tier 2');
    if (a.range_only !== true || a.range_reason !== 'hedonic_tier2_always_range') push('TIER', 'arv.range_only', 'hedonic_v1 is always range_only with hedonic_tier2_always_range');
    // Lake has its own hedonic segments (`<ptype>_lake`, issue 14): a model fit on one county never values the other.
    const fitCounty = (a.model?.segment ?? a.segment ?? '').endsWith('_lake') ? 'lake' : 'cook';
    if (v.subject.county !== fitCounty) push('TIER', 'arv.method', `hedonic_v1 serves a subject only from a segment fit on its own county (${fitCounty})`);
  }
  if (a.premium && a.method_tier !== 2) push('TIER', 'arv.premium', 'premium is Tier 2 only');
  if (isTier1Method(a.method) && a.fsd != null && a.fsd / 100 > COMP_POLICY.v.dispersion_gate) {
    push('GATE', 'arv.fsd', 'a tier-1 value above the dispersion gate must be suppressed (dispersion_exceeds_threshold)');
  }
}

function checkRangeOnly(v: Valuation, push: Push): void {
  const a = v.arv;
  if (a.range_only !== true) return;
  if (a.value !== null) push('RANGE_ONLY', 'arv.value', 'range-only: no point amount is served');
  if (!a.range_reason) push('RANGE_ONLY', 'arv.range_reason', 'range-only names its range_reason');
  if (a.low === null || a.high === null) push('RANGE_ONLY', 'arv', 'range-only serves low and high');
  if (v.tax.target_basis === 'arv') push('RANGE_ONLY', 'tax.target_basis', 'no forward tax on a point ARV that is not served');
  const minPoint = COMP_POLICY.v.min_comps_point;
  if (isTier1Method(a.method) && a.n_comps != null && a.n_comps < minPoint && !a.range_reason?.includes('thin_comps')) {
    push('RANGE_ONLY', 'arv.range_reason', 'fewer than 5 comps: range_reason includes thin_comps');
  }
}

function checkPoint(a: Arv, push: Push): void {
  if (a.value === null) return;
  if (!isTier1Method(a.method)) push('POINT', 'arv.method', 'only tier 1 serves a point value');
  if (a.range_only !== false) push('POINT', 'arv.range_only', 'a served point has range_only false');
  if (a.range_reason) push('POINT', 'arv.range_reason', 'a served point has no range_reason');
  if (a.n_comps == null || a.n_comps < COMP_POLICY.v.min_comps_point) push('POINT', 'arv.n_comps', 'a public point needs at least 5 comps');
  const iv = a.interval;
  if (!iv || !iv.calibrated || iv.method !== 'split_conformal') push('POINT', 'arv.interval', 'a served point carries its calibrated split-conformal interval');
}

function checkMoneyOrder(v: Valuation, push: Push): void {
  const triples: Array<[string, number | null | undefined, number | null | undefined, number | null | undefined]> = [
    ['arv', v.arv.low, v.arv.value, v.arv.high],
    ['value_as_is', v.value_as_is?.low, v.value_as_is?.value, v.value_as_is?.high],
    ['area_context', v.area_context?.low, v.area_context?.value, v.area_context?.high],
  ];
  for (const [path, lo, mid, hi] of triples) {
    if (lo != null && hi != null && lo > hi) push('ORDER', path, 'low ≤ high');
    if (mid != null && lo != null && lo > mid) push('ORDER', path, 'low ≤ value');
    if (mid != null && hi != null && mid > hi) push('ORDER', path, 'value ≤ high');
  }
  const iv = v.arv.interval;
  if (iv && iv.low > iv.high) push('ORDER', 'arv.interval', 'interval low ≤ high');
}

function checkComps(a: Arv, push: Push): void {
  const comps = a.comps ?? [];
  const capFrac = COMP_POLICY.v.gla_adj_cap_frac;
  comps.forEach((c, i) => {
    if (c.condition === 'dated' || c.condition === 'distressed') push('INV-8', `arv.comps.${i}`, 'arv comps come from the renovated/new stratum; as-is evidence never enters arv');
    if (c.gla_adj !== null && Math.abs(c.gla_adj) > capFrac * c.indexed_price * (1 + FLOAT_SLACK)) push('COMP', `arv.comps.${i}.gla_adj`, 'GLA adjustment capped at ±15% of the indexed price');
  });
  if (a.n_comps != null && comps.length > 0 && comps.length !== a.n_comps) push('COMP', 'arv.n_comps', 'n_comps counts the comps listed');
}

function checkAreaContext(v: Valuation, push: Push): void {
  const ac = v.area_context;
  if (v.tax.target_basis === 'area_estimate' && !ac) push('AREA_CONTEXT', 'tax.target_basis', 'area_estimate basis needs area_context');
  if (ac && ac.confidence != null && ac.confidence > VALUATION_DISPLAY.v.area_context_confidence_max) push('AREA_CONTEXT', 'area_context.confidence', 'at most 55');
}

function checkDisplay(v: Valuation, push: Push): void {
  const d = v.display;
  if (!d) return;
  const a = v.arv;
  const isPoint = a.value !== null && a.range_only === false;
  if (d.point_actionable !== isPoint || (d.outcome === 'point') !== isPoint) push('DISPLAY', 'display', 'point_actionable ⇔ outcome point ⇔ a served tier-1 point');
  if (d.point_actionable === (d.unscored_reason !== null)) push('DISPLAY', 'display.unscored_reason', 'unscored_reason is set exactly when not point-actionable');
  if (d.outcome === 'area_context' && (!v.area_context || a.method !== 'suppressed')) push('DISPLAY', 'display.outcome', 'area-context outcome: arv suppressed, area_context filled');
  if (d.outcome === 'suppressed' && a.method !== 'suppressed') push('DISPLAY', 'display.outcome', 'suppressed outcome: arv method suppressed');
  if (d.outcome === 'tier2_range' && a.method !== 'hedonic_v1') push('DISPLAY', 'display.outcome', 'tier-2 outcome: hedonic_v1');
  if (d.score_basis === 'area_estimate' && (d.deal_score_cap === null || d.deal_score_cap > VALUATION_DISPLAY.v.area_context_deal_score_cap)) {
    push('DISPLAY', 'display.deal_score_cap', 'area-estimate scores are capped at 65');
  }
}

function checkRentAliases(v: Valuation, push: Push): void {
  const r = v.rent;
  if (r.as_is_contract && r.market !== r.as_is_contract.value) push('RENT', 'rent.market', 'market is the alias of as_is_contract.value');
  if (r.stabilized_post_reno && r.reno !== r.stabilized_post_reno.value) push('RENT', 'rent.reno', 'reno is the alias of stabilized_post_reno.value');
}

function checkArtifact(v: Valuation, push: Push): void {
  const art = v.artifact;
  if (!art) return;
  if (!isDeepStrictEqual(art.subject, v.subject)) push('PARITY', 'artifact.subject', 'artifact.subject equals valuation.subject');
  if (art.inputs_hash !== v.inputs_hash || art.model_version !== v.model_version || art.as_of !== v.as_of) {
    push('PARITY', 'artifact', 'inputs_hash, model_version and as_of match the valuation');
  }
  if (art.arv && art.arv_null_reason) push('PARITY', 'artifact.arv_null_reason', 'arv_null_reason only when artifact.arv is null');
  if (!art.arv && !art.arv_null_reason) push('PARITY', 'artifact.arv_null_reason', 'a null artifact.arv names its reason');
  if (isTier1Method(v.arv.method) && (!art.arv || art.arv.method !== v.arv.method || art.arv.n_comps !== v.arv.n_comps)) {
    push('PARITY', 'artifact.arv', 'a displayed tier-1 arv is derived from artifact.arv');
  }
}
