// Raw per-strategy score: hard gates first (INV-4), then a weighted blend of 0-1 factors from that strategy's
// own economics plus optional market context. Gated-out or unscored rows get null, never 0.
import { SCORING } from '../registry/groups/scoring.js';
import type { Economics, Strategy } from '../underwriting/types.js';
import { evaluateGates, type GateResult } from './gates.js';
import type { ResolvedWeights } from './weights.js';

const S = SCORING.v;

/** Market context, each optional: trend ∈ [0,1] (tract price trend factor), riskScore ∈ [0,100] (risk report). */
export type ScoreContext = { trend?: number | null; riskScore?: number | null };

export type RawScore = {
  strategy: Strategy;
  raw: number | null;
  gates: GateResult | null;
  factors: Record<string, number | null>;
  /** Why raw is null: the valuation's unscored reason, `gated_out`, or `no_weighted_factor`. */
  null_reason: string | null;
};

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const opt = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : clamp01(x));

/** Factor definitions (all clamped to [0,1]); a factor whose input is missing is null and drops out of the blend. */
export function strategyFactors(strategy: Strategy, e: Economics, ctx: ScoreContext): Record<string, number | null> {
  const [dLo, dHi] = S.dscr_factor_range;
  switch (strategy) {
    case 'flip':
      return {
        margin: e.profit_margin === null ? null : opt(e.profit_margin / S.margin_saturation_frac),
        velocity: e.hold_months === null ? null : opt(1 - e.hold_months / S.flip_velocity_months_max),
        trend: ctx.trend === undefined || ctx.trend === null ? null : opt(ctx.trend),
      };
    case 'brrrr':
      return {
        ratio: e.cash_left_frac === null ? null : opt(1 - e.cash_left_frac),
        dscr: e.dscr === null ? null : opt((e.dscr - dLo) / (dHi - dLo)),
      };
    case 'hold':
      return {
        coc: e.cash_on_cash === null ? null : opt(e.cash_on_cash / S.coc_saturation),
        risk: ctx.riskScore === undefined || ctx.riskScore === null ? null : opt(1 - ctx.riskScore / 100),
      };
    case 'house_hack':
      return { savings: e.owner_cost_to_rent === null ? null : opt(1 - e.owner_cost_to_rent) };
  }
}

/** Weighted mean over the available factors: Σ wᵢfᵢ / Σ wᵢ (i with fᵢ known); null when that weight is 0. */
export function blend(factors: Record<string, number | null>, weights: Record<string, number>): number | null {
  let num = 0;
  let den = 0;
  for (const [k, f] of Object.entries(factors)) {
    const wk = weights[k] ?? 0;
    if (f === null || wk === 0) continue;
    num += wk * f;
    den += wk;
  }
  return den > 0 ? num / den : null;
}

export function rawStrategyScore(strategy: Strategy, e: Economics, unscoredReason: string | null, weights: ResolvedWeights, ctx: ScoreContext = {}): RawScore {
  if (unscoredReason !== null) return { strategy, raw: null, gates: null, factors: {}, null_reason: unscoredReason };
  const gates = evaluateGates(strategy, e);
  const factors = strategyFactors(strategy, e, ctx);
  if (!gates.pass) return { strategy, raw: null, gates, factors, null_reason: 'gated_out' };
  const raw = blend(factors, weights[strategy] as Record<string, number>);
  return { strategy, raw, gates, factors, null_reason: raw === null ? 'no_weighted_factor' : null };
}
