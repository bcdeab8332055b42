// Per-strategy inventory percentiles over the current scored inventory, and the row's deal_score.
// Null raw scores (unscored or gated out) stay null and are not part of the population.
import { SCORING } from '../registry/groups/scoring.js';
import { STRATEGIES, type Strategy } from '../underwriting/types.js';

export type RawRow = { id: string; raw: Partial<Record<Strategy, number | null>> };
export type PercentileRow = { id: string; percentiles: Record<Strategy, number | null> };

/** Count of sorted values below x (strictly, or ≤ x when inclusive). */
function countBelow(sorted: Float64Array, x: number, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x || (inclusive && sorted[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Mid-rank percentile rank: PR = 100 × (B + E/2) / N, where N is the number of non-null scores for the strategy,
 * B the number strictly below and E the number equal (the row itself included). Tied scores get the same
 * percentile; a lone row gets 50; PR is always strictly inside (0, 100).
 */
export function rankToPercentiles(rows: RawRow[]): PercentileRow[] {
  const sortedBy = {} as Record<Strategy, Float64Array>;
  for (const s of STRATEGIES) {
    const vals = rows.map((r) => r.raw[s]).filter((v): v is number => v !== null && v !== undefined && Number.isFinite(v));
    sortedBy[s] = Float64Array.from(vals).sort();
  }
  return rows.map((r) => {
    const percentiles = {} as Record<Strategy, number | null>;
    for (const s of STRATEGIES) {
      const v = r.raw[s];
      const sorted = sortedBy[s];
      if (v === null || v === undefined || !Number.isFinite(v)) {
        percentiles[s] = null;
        continue;
      }
      const below = countBelow(sorted, v, false);
      const equal = countBelow(sorted, v, true) - below;
      percentiles[s] = (100 * (below + equal / 2)) / sorted.length;
    }
    return { id: r.id, percentiles };
  });
}

/** The non-null raw scores of one strategy across an inventory, ascending: the population a new subject is placed in. */
export function sortedPopulation(raws: Iterable<number | null | undefined>): Float64Array {
  const vals: number[] = [];
  for (const v of raws) if (v !== null && v !== undefined && Number.isFinite(v)) vals.push(v);
  return Float64Array.from(vals).sort();
}

/**
 * The inventory percentile a subject with raw score `raw` would have among `population` (sorted ascending, the
 * subject not in it): rankToPercentiles' mid-rank over the population plus the subject. A listing placed against the
 * inventory without its own row gets the percentile the listings run gave it. Null when `raw` is null.
 */
export function placeInPopulation(raw: number | null, population: Float64Array): number | null {
  if (raw === null || !Number.isFinite(raw)) return null;
  const below = countBelow(population, raw, false);
  const equal = countBelow(population, raw, true) - below + 1;
  return (100 * (below + equal / 2)) / (population.length + 1);
}

export type ScoreBasis = 'point' | 'area_estimate';
export type DealScore = { deal_score: number | null; score_basis: ScoreBasis | null; best_strategy: Strategy | null };

/**
 * deal_score: the chosen strategy's percentile when one is given, else the best strategy's; null means unscored
 * (never 0). Area-estimate rows are capped at the area cap and labelled score_basis `area_estimate`.
 */
export function dealScore(percentiles: Record<Strategy, number | null>, basis: ScoreBasis, chosen?: Strategy): DealScore {
  let best: Strategy | null = null;
  if (chosen) best = percentiles[chosen] === null ? null : chosen;
  else for (const s of STRATEGIES) if (percentiles[s] !== null && (best === null || (percentiles[s] as number) > (percentiles[best] as number))) best = s;
  if (best === null) return { deal_score: null, score_basis: null, best_strategy: null };
  const p = percentiles[best] as number;
  return { deal_score: basis === 'area_estimate' ? Math.min(p, SCORING.v.area_estimate_score_cap) : p, score_basis: basis, best_strategy: best };
}
