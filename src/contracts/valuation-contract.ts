// The published valuation contract (/api/spec/valuation-contract.json): tiers, ladder rows, gates, enums and the
// JSON Schema of the Valuation object, all generated from the zod schemas and the constants registry.
import { z } from 'zod';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { TIER1 } from '../registry/groups/tier1.js';
import { VALUATION_DISPLAY } from '../registry/groups/valuation.js';
import { AREA_CONTEXT_LABEL } from './area-context.js';
import { ARV_METHODS, RANGE_REASONS, SUPPRESSION_REASONS, TIER1_METHODS } from './arv.js';
import { FALLBACK_SOURCES } from './artifact.js';
import { DISCLOSURE, UNSCORED_REASONS, VALUATION_OUTCOMES, ValuationSchema } from './valuation.js';

export const VALUATION_CONTRACT_VERSION = '1.2.0';

/** Built once per process; the JSON Schema conversion is the only non-trivial cost. */
export function valuationContractDocument(): Record<string, unknown> {
  const cp = COMP_POLICY.v;
  const vd = VALUATION_DISPLAY.v;
  const t1 = TIER1.v;
  return {
    version: VALUATION_CONTRACT_VERSION,
    tiers: {
      1: {
        methods: TIER1_METHODS, min_comps_value: cp.min_comps_value, min_comps_point: cp.min_comps_point, max_comps: cp.max_comps,
        // 1.1.0: the subject's own earlier sale (arv.prior_sale)
        prior_sale: {
          rule: 'value = comps value × exp(weight × clamp(ln(earlier price carried by the county index / comps value)))',
          min_gap_days: t1.prior_sale_min_gap_days, max_log_gap: t1.prior_sale_max_log_gap, min_fit_n: t1.prior_sale_min_fit_n,
          weights: 'fitted per condition group on the calibration half of the champion\'s backtest (its table\'s priorSale); 0 without',
        },
      },
      2: { methods: ['hedonic_v1'], always_range_only: true, counties: ['cook'] },
      3: { methods: ['suppressed'], rule: 'INV-5: tier 3 suppresses rather than guesses' },
    },
    // 1.2.0: the as-is value reads the same earlier sale with its own weights (value_as_is.prior_sale)
    as_is: {
      prior_sale: {
        rule: 'value, low, high = the stratum\'s median and quartiles × exp(weight × clamp(ln(earlier price carried by the county index / median))), for an as-is value of the all_conditions stratum only (no stated condition)',
        weights: 'fitted per condition group on every sale of the calibration half of the champion\'s as-is backtest (its table\'s priorSaleAsIs); 0 without',
      },
    },
    arv_methods: ARV_METHODS,
    display_ladder: [
      { when: 'tier 1, n_comps >= 5, calibration display point', outcome: 'point', range_only: false },
      { when: 'tier 1, n_comps >= 5, calibration display not point', outcome: 'range', range_reason: 'calibration_display_gate' },
      { when: 'tier 1, 3-4 comps', outcome: 'range', range_reason: 'thin_comps (+calibration_display_gate when both)' },
      { when: 'no tier 1; hedonic display-eligible, cook, location resolved', outcome: 'tier2_range', range_reason: 'hedonic_tier2_always_range' },
      { when: 'no tier 1, no hedonic range, area context available', outcome: 'area_context', deal_score_cap: vd.area_context_deal_score_cap, score_basis: 'area_estimate' },
      { when: 'otherwise (or outside_mapped_tracts / tract_not_ingested / condo_model_unavailable)', outcome: 'suppressed' },
    ],
    outcomes: VALUATION_OUTCOMES,
    unscored_reasons: UNSCORED_REASONS,
    suppression_reasons: SUPPRESSION_REASONS,
    range_reasons: RANGE_REASONS,
    fallback_sources: FALLBACK_SOURCES,
    gates: {
      dispersion_fsd_frac: cp.dispersion_gate,
      fsd_tiers_pct: { high_max: cp.fsd_tier_high_max, medium_max: cp.fsd_tier_medium_max },
      ladder_confidence_penalty: cp.ladder_confidence_penalty,
      interval_coverage: vd.interval_coverage,
      model_disagreement_frac: vd.model_disagreement_frac,
      area_context_confidence_max: vd.area_context_confidence_max,
    },
    money_rounding: { threshold_usd: vd.money_round_threshold_usd, step_at_or_above_usd: vd.money_round_step_large_usd, step_below_usd: vd.money_round_step_small_usd, bounds: 'low rounds down, high rounds up' },
    area_context_label: AREA_CONTEXT_LABEL,
    disclosure: DISCLOSURE,
    schema: z.toJSONSchema(ValuationSchema, { io: 'output' }),
  };
}
