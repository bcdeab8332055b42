// Helpers for listings tests: a hand-made feed record and a scripted scorer that returns chosen raw scores.
import type { ListingRecord } from '../../src/ingest/loaders/listings.js';
import type { BatchScorer } from '../../src/scoring/scorer.js';
import { emptyScore, type SubjectScore } from '../../src/scoring/score-subject.js';
import { MODEL_VERSION } from '../../src/registry/versions.js';
import type { Strategy } from '../../src/underwriting/types.js';

export function listing(id: string, over: Partial<ListingRecord> = {}): ListingRecord {
  return {
    listing_id: id, address: `${id.replace(/\D/g, '') || '1'} W Test St`, zip: '60622', price_usd: 300_000, url: `https://example.test/${id}`,
    lat: 41.9, lon: -87.68, list_date: '2026-11-01', status: 'active', pin: null, county: 'cook', units: 2, beds: 4, sqft: 2000,
    year_built: 1920, property_type: 'mf2_4', condition: 'dated', history: [], ...over,
  };
}

/** A point-actionable score with the given raw scores (null = gated out), as the worker would return it. */
export function pointScore(id: string, raw: Partial<Record<Strategy, number | null>>): SubjectScore {
  const s = emptyScore(id, null);
  return {
    ...s, model_version: MODEL_VERSION, as_of: '2026-11-21', outcome: 'point', point_actionable: true, score_basis: 'arv',
    arv_value: 400_000, arv_low: 360_000, arv_high: 440_000, arv_method: 'renovated_comps', method_tier: 1, arv_confidence: 60,
    raw: { flip: null, brrrr: null, hold: null, house_hack: null, ...raw },
    null_reasons: { flip: 'gated_out', brrrr: 'gated_out', hold: 'gated_out', house_hack: 'gated_out' },
  };
}

/** A range-only score: no raw scores (the ladder kept economics locked). */
export function rangeScore(id: string): SubjectScore {
  return { ...emptyScore(id, null), model_version: MODEL_VERSION, outcome: 'range', unscored_reason: 'valuation_range_only', arv_low: 300_000, arv_high: 420_000, arv_method: 'renovated_comps' };
}

export function scriptedScorer(byId: (id: string) => SubjectScore): BatchScorer & { batches: number[] } {
  const batches: number[] = [];
  return {
    batches,
    parallelism: 2,
    scoreBatch: async (subjects) => {
      batches.push(subjects.length);
      return subjects.map((s) => byId(s.id));
    },
    close: async () => {},
  };
}
