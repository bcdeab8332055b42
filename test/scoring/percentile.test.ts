import { describe, expect, it } from 'vitest';
import { dealScore, rankToPercentiles } from '../../src/scoring/percentile.js';

const row = (id: string, flip: number | null, brrrr: number | null = null) => ({ id, raw: { flip, brrrr, hold: null, house_hack: null } });

describe('rankToPercentiles(rows)', () => {
  it('gives mid-rank percentiles, ties share one, nulls stay null and are not counted', () => {
    // flip scores 0.1, 0.5, 0.5, 0.9 (N = 4) plus one gated-out row (null).
    // PR = 100 × (below + equal/2) / N: 0.1 → (0 + 0.5)/4 = 12.5; 0.5 → (1 + 1)/4 = 50; 0.9 → (3 + 0.5)/4 = 87.5
    const out = rankToPercentiles([row('a', 0.5), row('b', 0.1), row('c', null), row('d', 0.9), row('e', 0.5)]);
    const flip = Object.fromEntries(out.map((r) => [r.id, r.percentiles.flip]));
    expect(flip).toEqual({ a: 50, b: 12.5, c: null, d: 87.5, e: 50 });
    expect(out.every((r) => r.percentiles.hold === null)).toBe(true);
  });
  it('ranks each strategy over its own population', () => {
    // brrrr: only rows a (0.3) and b (0.7) scored → 25 and 75
    const out = rankToPercentiles([row('a', 0.9, 0.3), row('b', null, 0.7), row('c', 0.2, null)]);
    expect(out.map((r) => r.percentiles.brrrr)).toEqual([25, 75, null]);
    expect(out.map((r) => r.percentiles.flip)).toEqual([75, null, 25]);
  });
  it('gives a lone row 50 and an all-tied population 50', () => {
    expect(rankToPercentiles([row('a', 0.4)])[0].percentiles.flip).toBe(50);
    expect(rankToPercentiles([row('a', 0.4), row('b', 0.4), row('c', 0.4)]).map((r) => r.percentiles.flip)).toEqual([50, 50, 50]);
  });
});

describe('dealScore(percentiles, basis, chosen?)', () => {
  const p = { flip: 40, brrrr: 90, hold: null, house_hack: 10 };
  it('takes the best strategy, or the chosen one', () => {
    expect(dealScore(p, 'point')).toEqual({ deal_score: 90, score_basis: 'point', best_strategy: 'brrrr' });
    expect(dealScore(p, 'point', 'flip').deal_score).toBe(40);
  });
  it('is null (never 0) when nothing scored or the chosen strategy is gated out', () => {
    expect(dealScore({ flip: null, brrrr: null, hold: null, house_hack: null }, 'point').deal_score).toBeNull();
    expect(dealScore(p, 'point', 'hold').deal_score).toBeNull();
  });
  it('caps area-estimate rows at 65 and labels them', () => {
    expect(dealScore(p, 'area_estimate')).toEqual({ deal_score: 65, score_basis: 'area_estimate', best_strategy: 'brrrr' });
    expect(dealScore(p, 'area_estimate', 'flip').deal_score).toBe(40);
  });
});
