// `avm score-all`: values and scores every parcel of the current snapshot (not only listings) through the worker
// pool in batches, with a progress bar, ranks per-strategy percentiles across the whole corpus, and stores the
// result as one Arrow IPC table in the `results` sub-db (key `score-all:<snapshot id>`). Parcels are scored at
// their labeled as-is value (see ScoreSubject.priceBasis); rows without a point valuation carry null scores.
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import type { Config } from '../config.js';
import { createProgress, type Progress } from '../progress.js';
import { LISTINGS_RUN } from '../registry/groups/listings.js';
import { MODEL_VERSION } from '../registry/versions.js';
import { dealScore, rankToPercentiles } from '../scoring/percentile.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import type { Store } from '../store/store.js';
import { STRATEGIES } from '../underwriting/types.js';
import type { ScoreSubject, SubjectScore } from './score-subject.js';
import { scoreInBatches, type BatchScorer } from './scorer.js';

export const SCORE_ALL_META_KEY = 'score_all:last';
export const resultsKey = (snapshotId: string): string => `score-all:${snapshotId}`;

export type ScoreAllSummary = {
  snapshot_id: string;
  model_version: string;
  /** Parcels scored (all of them unless a sample limit was given) and parcels in the snapshot. */
  parcels: number;
  total_parcels: number;
  point: number;
  scored: number;
  errors: number;
  wall_ms: number;
  valuations_per_s: number;
  results_key: string;
  results_bytes: number;
};

const OUTCOMES = ['point', 'range', 'tier2_range', 'area_context', 'suppressed'];

/**
 * Every parcel PIN of the snapshot as a subject (PIN lookup fills location and characteristics); with `limit`, an
 * evenly spaced sample of that many parcels (parcel order is spatial, so the first N would be one neighbourhood).
 */
export function parcelSubjects(store: Store, limit?: number): { snapshotId: string; subjects: ScoreSubject[]; totalParcels: number } {
  const { id, table } = store.readParcels();
  const pins = table.getChild('pin');
  if (!pins) throw new Error('parcel table has no pin column');
  const n = Math.min(table.numRows, limit ?? Infinity);
  const step = table.numRows / Math.max(1, n);
  const subjects: ScoreSubject[] = new Array(n);
  for (let k = 0; k < n; k++) {
    const pin = String(pins.get(Math.floor(k * step)));
    subjects[k] = { id: pin, input: { propertyId: pin }, priceBasis: 'as_is' };
  }
  return { snapshotId: id, subjects, totalParcels: table.numRows };
}

const f64 = (xs: SubjectScore[], f: (s: SubjectScore) => number | null): Float64Array => Float64Array.from(xs, (s) => f(s) ?? NaN);

/** The Arrow results table: one row per parcel; NaN is "null" in the float columns (unscored, never 0). */
export function encodeResults(scores: SubjectScore[]): Uint8Array {
  const pct = rankToPercentiles(scores.map((s) => ({ id: s.id, raw: s.raw })));
  const deal = pct.map((p, i) => (scores[i].point_actionable ? dealScore(p.percentiles, 'point').deal_score : null));
  const cols: Record<string, unknown> = {
    pin: scores.map((s) => s.id),
    outcome: Uint8Array.from(scores, (s) => (s.outcome === null ? 255 : OUTCOMES.indexOf(s.outcome))),
    point_actionable: Uint8Array.from(scores, (s) => (s.point_actionable ? 1 : 0)),
    arv_usd: f64(scores, (s) => s.arv_value),
    arv_low_usd: f64(scores, (s) => s.arv_low),
    arv_high_usd: f64(scores, (s) => s.arv_high),
    arv_confidence: f64(scores, (s) => s.arv_confidence),
    value_as_is_usd: f64(scores, (s) => s.value_as_is),
    deal_score: Float64Array.from(deal, (d) => d ?? NaN),
  };
  for (const st of STRATEGIES) cols[`pct_${st}`] = Float64Array.from(pct, (p) => p.percentiles[st] ?? NaN);
  // tableFromArrays infers a schema from the column map; the map's value types are mixed, hence the widening cast.
  return tableToIPC(tableFromArrays(cols as Record<string, Float64Array>), 'stream');
}

/** Scores the parcels, ranks percentiles over all of them, stores the Arrow table. wall_ms excludes pool start-up. */
export async function scoreAll(store: Store, scorer: BatchScorer, o: { progress?: Progress; limit?: number; batchSize?: number } = {}): Promise<ScoreAllSummary> {
  const t0 = performance.now();
  const { snapshotId, subjects, totalParcels } = parcelSubjects(store, o.limit);
  const scores = await scoreInBatches(scorer, subjects, o.batchSize ?? LISTINGS_RUN.v.score_all_batch_size, (done, total) => o.progress?.update(done, total, 'valuing'));
  o.progress?.stop();
  const bytes = encodeResults(scores);
  const key = resultsKey(snapshotId);
  await openSubDb<Buffer>(store.env, DB_NAMES.results).put(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const wallMs = performance.now() - t0;
  const summary: ScoreAllSummary = {
    snapshot_id: snapshotId, model_version: MODEL_VERSION, parcels: scores.length, total_parcels: totalParcels,
    point: scores.filter((s) => s.point_actionable).length,
    scored: scores.filter((s) => STRATEGIES.some((st) => s.raw[st] !== null)).length,
    errors: scores.filter((s) => s.error !== null).length,
    wall_ms: Math.round(wallMs), valuations_per_s: Math.round((scores.length / wallMs) * 1000 * 10) / 10, results_key: key, results_bytes: bytes.byteLength,
  };
  await store.putMeta(SCORE_ALL_META_KEY, summary);
  return summary;
}

/** CLI job: opens the store, starts the pool, scores every parcel with a progress bar, prints the summary. */
export async function runScoreAll(config: Config, o: { limit?: number } = {}): Promise<ScoreAllSummary> {
  const { openStore } = await import('../store/store.js');
  const { poolScorer } = await import('./scorer.js');
  const store = openStore(config.dataDir);
  const scorer = await poolScorer(store, config);
  try {
    return await scoreAll(store, scorer, { progress: createProgress('score-all'), limit: o.limit });
  } finally {
    await scorer.close();
    await store.close();
  }
}
