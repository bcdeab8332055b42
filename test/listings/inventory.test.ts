// searchInventory / searchDeals: only active, point-supported, current-model rows with a percentile for the strategy;
// ranked by that percentile; filters, the fields allowlist and the cursor; search_deals' top-quartile default.
import { describe, expect, it } from 'vitest';
import { InventorySearchOutputSchema } from '../../src/contracts/tools.js';
import { AppError } from '../../src/errors/app-error.js';
import { searchDeals, searchInventory } from '../../src/listings/inventory.js';
import { buildScoredListing, type ScoredListing } from '../../src/listings/rows.js';
import type { GateFailure, SubjectScore } from '../../src/scoring/score-subject.js';
import type { Strategy } from '../../src/underwriting/types.js';
import { listing, pointScore, rangeScore } from './support.js';

function row(id: string, score: SubjectScore, pct: Partial<Record<Strategy, number | null>>, over: Partial<ScoredListing> = {}): ScoredListing {
  const r = buildScoredListing({
    listing: listing(id, { price_usd: 100_000 * (Number(id.replace(/\D/g, '')) || 1) }), score, percentiles: { flip: null, brrrr: null, hold: null, house_hack: null, ...pct },
    runId: 'run-1', runKind: 'manual', scoredAt: '2026-11-21T13:00:00.000Z', firstSeenAt: '2026-11-21T13:00:00.000Z', dedupeKey: id,
  });
  return { ...r, ...over };
}

const ROWS: ScoredListing[] = [
  row('L1', pointScore('L1', { brrrr: 0.5 }), { brrrr: 40 }),
  row('L2', pointScore('L2', { brrrr: 0.9 }), { brrrr: 90 }),
  row('L3', pointScore('L3', { brrrr: 0.7 }), { brrrr: 70 }, { lat: 42.3, lon: -87.9, zip: '60045' }),
  row('L4', rangeScore('L4'), {}),
  row('L5', pointScore('L5', { brrrr: 0.95 }), { brrrr: 95 }, { model_version: 'avm-old' }),
  row('L6', pointScore('L6', { flip: 0.5 }), { flip: 50 }),
  row('L7', pointScore('L7', { brrrr: 0.99 }), { brrrr: 99 }, { status: 'duplicate' }),
];

describe('searchInventory', () => {
  it('ranks eligible rows by the strategy percentile and excludes range-only, stale, duplicate and unscored rows', () => {
    const page = searchInventory(ROWS, { strategy: 'brrrr' });
    expect(page.results.map((r) => r.listing_id)).toEqual(['L2', 'L3', 'L1']);
    expect(page.excluded).toEqual({ not_active: 1, not_point: 1, stale_model: 1, unscored_for_strategy: 1, filtered: 0 });
    expect(InventorySearchOutputSchema.safeParse(page).success).toBe(true);
  });

  it('applies bbox, ZIP, min_percentile, max_price and min_confidence filters', () => {
    expect(searchInventory(ROWS, { bbox: '-88,42,-87.8,42.5' }).results.map((r) => r.listing_id)).toEqual(['L3']);
    expect(searchInventory(ROWS, { geography: '60045' }).results.map((r) => r.listing_id)).toEqual(['L3']);
    expect(searchInventory(ROWS, { min_percentile: 70 }).results.map((r) => r.listing_id)).toEqual(['L2', 'L3']);
    expect(searchInventory(ROWS, { max_price: 150_000 }).results.map((r) => r.listing_id)).toEqual(['L1']);
    expect(searchInventory(ROWS, { min_confidence: 61 }).total).toBe(0); // every point fixture has confidence 60
    expect(searchInventory(ROWS, { min_confidence: 61 }).empty_reason).toBe('filters too tight');
  });

  it('pages with a cursor and projects only the allowed fields asked for', () => {
    const first = searchInventory(ROWS, { limit: 2, fields: 'listing_id,percentile' });
    expect(first.results).toEqual([{ listing_id: 'L2', percentile: 90 }, { listing_id: 'L3', percentile: 70 }]);
    const second = searchInventory(ROWS, { limit: 2, fields: 'listing_id', cursor: first.next_cursor as string });
    expect(second.results).toEqual([{ listing_id: 'L1' }]);
    expect(second.next_cursor).toBeNull();
    expect(() => searchInventory(ROWS, { fields: 'listing_id,owner_name' })).toThrow(AppError);
    expect(() => searchInventory(ROWS, { cursor: 'garbage' })).toThrow(/cursor/);
    expect(() => searchInventory(ROWS, { limit: 101 })).toThrow(AppError);
  });
});

describe('searchInventory empty_reason', () => {
  // Three point rows gated out for brrrr with their stored gate failures, one range-only row.
  const gated = (id: string, dscr: number, cashLeft: number | null): ScoredListing => {
    const failures: GateFailure[] = [{ metric: 'dscr', value: dscr, threshold: 1.2, direction: 'min' }];
    if (cashLeft !== null) failures.push({ metric: 'cash_left_frac', value: cashLeft, threshold: 0.2, direction: 'max' });
    const score = pointScore(id, {});
    return row(id, { ...score, gate_failures: { ...score.gate_failures, brrrr: failures } }, {});
  };
  const GATED = [gated('G1', 1, 0.9), gated('G2', 1, 0.8), gated('G3', 1.1, null), row('G4', rangeScore('G4'), {})];

  it('says how many listings were scored and which gate checks failed, not that the daily run is missing', () => {
    const page = searchInventory(GATED, { strategy: 'brrrr' });
    expect(page.total).toBe(0);
    expect(page.empty_reason).not.toMatch(/daily run/);
    expect(page.empty_reason).toBe(
      '4 active listings scored by the last run, none with a brrrr percentile: 1 without a point valuation (1 range); '
        + '3 point-supported, all gated out for brrrr: 3 dscr below 1.2 (median 1), 2 cash_left_frac above 0.2 (median 0.85)',
    );
  });

  it('keeps the daily-run wording only when there are no scored rows at all', () => {
    expect(searchInventory([], { strategy: 'brrrr' }).empty_reason).toMatch(/daily run may not have populated/);
    expect(searchInventory([{ ...ROWS[6] }], { strategy: 'brrrr' }).empty_reason).toMatch(/daily run may not have populated/); // only a duplicate row
  });

  it('names stale rows and unscored reasons other than gates', () => {
    const stale = { ...ROWS[0], model_version: 'avm-old' };
    const unscored = row('U1', { ...pointScore('U1', {}), null_reasons: { flip: 'rent_unknown', brrrr: 'rent_unknown', hold: 'rent_unknown', house_hack: 'rent_unknown' } }, {});
    expect(searchInventory([stale, unscored], { strategy: 'hold' }).empty_reason).toBe(
      '2 active listings scored by the last run, none with a hold percentile: 1 scored by an older model version (the next run rescores it); '
        + '1 point-supported, none scored for hold: 1 rent_unknown',
    );
  });
});

describe('searchDeals', () => {
  it('defaults min_score to the top-quartile cutoff (75) and limit to 10', () => {
    expect(searchDeals(ROWS, {}, new Date('2026-11-21T14:00:00Z')).results.map((r) => r.listing_id)).toEqual(['L2']);
    expect(searchDeals(ROWS, { since_hours: 0.5 }, new Date('2026-11-21T14:00:00Z')).total).toBe(0);
  });
});
