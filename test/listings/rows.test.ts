// buildScoredListing: the stored row's reasons name the failed gate checks of each gated-out strategy and the
// valuation's as_is_exceeds_arv warning with the two amounts; the per-strategy checks are stored beside the reasons.
import { describe, expect, it } from 'vitest';
import { buildScoredListing } from '../../src/listings/rows.js';
import type { SubjectScore } from '../../src/scoring/score-subject.js';
import { listing, pointScore, rangeScore } from './support.js';

const build = (score: SubjectScore) => buildScoredListing({
  listing: listing(score.id), score, percentiles: { flip: null, brrrr: null, hold: null, house_hack: null },
  runId: 'run-1', runKind: 'manual', scoredAt: '2026-11-21T13:00:00.000Z', firstSeenAt: '2026-11-21T13:00:00.000Z', dedupeKey: score.id,
});

describe('buildScoredListing(parts)', () => {
  it('names each gated-out strategy\'s failed checks in the reasons and stores them per strategy', () => {
    const s = pointScore('L1', {});
    const failures = [{ metric: 'noi', value: -4435, threshold: 0, direction: 'min' as const }];
    const row = build({ ...s, gate_failures: { ...s.gate_failures, house_hack: failures } });
    expect(row.reasons).toContain('house_hack: gated_out (noi -4435 below 0)');
    expect(row.strategy_gate_failures!.house_hack).toEqual(failures);
    expect(row.reasons).toContain('flip: gated_out'); // no stored checks: the bare reason
  });

  it('shows as_is_exceeds_arv with the as-is and the served ARV (point) or the range high (range-only)', () => {
    const point = build({ ...pointScore('L2', {}), value_as_is: 412_000, warnings: ['as_is_thin_evidence', 'as_is_exceeds_arv'] });
    expect(point.reasons).toContain('valuation warning as_is_exceeds_arv: as-is $412,000 is above ARV $400,000');
    expect(point.valuation.warnings).toEqual(['as_is_thin_evidence', 'as_is_exceeds_arv']);
    const range = build({ ...rangeScore('L3'), value_as_is: 430_000, warnings: ['as_is_exceeds_arv'] });
    expect(range.reasons[0]).toMatch(/^unscored/);
    expect(range.reasons).toContain('valuation warning as_is_exceeds_arv: as-is $430,000 is above the top of the ARV range $420,000');
    expect(build(pointScore('L4', {})).reasons.some((r) => r.includes('as_is_exceeds_arv'))).toBe(false);
  });
});
