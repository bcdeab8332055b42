// Scores a whole inventory: raw per-strategy scores for every row, per-strategy percentiles across the rows that
// scored, and each row's deal_score. Rows whose valuation is not a point carry null scores throughout.
import type { StrategyOutcome } from '../underwriting/underwrite.js';
import { STRATEGIES, type Strategy } from '../underwriting/types.js';
import { dealScore, rankToPercentiles, type DealScore, type ScoreBasis } from './percentile.js';
import { rawStrategyScore, type RawScore, type ScoreContext } from './raw-score.js';
import type { ResolvedWeights } from './weights.js';

export type InventoryRow = {
  id: string;
  basis: ScoreBasis;
  strategies: Record<Strategy, StrategyOutcome>;
  context?: ScoreContext;
};

export type ScoredRow = DealScore & {
  id: string;
  strategy_scores: Record<Strategy, number | null>;
  raw: Record<Strategy, RawScore>;
};

export function scoreInventory(rows: InventoryRow[], weights: ResolvedWeights, chosen?: Strategy): ScoredRow[] {
  const raws = rows.map((r) => {
    const raw = {} as Record<Strategy, RawScore>;
    for (const s of STRATEGIES) raw[s] = rawStrategyScore(s, r.strategies[s].economics, r.strategies[s].unscored_reason, weights, r.context);
    return raw;
  });
  const pct = rankToPercentiles(rows.map((r, i) => ({ id: r.id, raw: { flip: raws[i].flip.raw, brrrr: raws[i].brrrr.raw, hold: raws[i].hold.raw, house_hack: raws[i].house_hack.raw } })));
  return rows.map((r, i) => ({ id: r.id, strategy_scores: pct[i].percentiles, raw: raws[i], ...dealScore(pct[i].percentiles, r.basis, chosen) }));
}
