// `avm score-all`: values and scores every parcel of the current snapshot (not only listings) through the worker
// pool in batches, with a progress bar, ranks per-strategy percentiles across the whole corpus, and stores the
// result as one Arrow IPC table in the `results` sub-db (key `score-all:<snapshot id>`). Parcels are scored at
// their labeled as-is value (see ScoreSubject.priceBasis); rows without a point valuation carry null scores.
import { makeVector, Table, tableToIPC, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import type { Config } from '../../config.js';
import { createProgress, type Progress } from '../../progress.js';
import { LISTINGS_RUN } from '../../registry/groups/listings.js';
import { MODEL_VERSION } from '../../registry/versions.js';
import { dealScore, rankToPercentiles } from '../percentile.js';
import { utcDay } from '../../store/days.js';
import { DB_NAMES, openSubDb } from '../../store/env.js';
import type { Store } from '../../store/store.js';
import { STRATEGIES } from '../../underwriting/types.js';
import type { ScoreSubject, SubjectScore } from '../score-subject.js';
import type { BatchScorer } from '../scorer.js';
import { OUTCOMES, type ScoreColumns } from './columns.js';
import { assertKernelAvailable } from '../../kernel/select.js';

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

const f64 = (xs: readonly SubjectScore[], f: (s: SubjectScore) => number | null): Float64Array => Float64Array.from(xs, (s) => f(s) ?? NaN);

export function toColumns(scores: readonly SubjectScore[]): ScoreColumns {
  return {
    outcome: Uint8Array.from(scores, (s) => (s.outcome === null ? 255 : OUTCOMES.indexOf(s.outcome))),
    point: Uint8Array.from(scores, (s) => (s.point_actionable ? 1 : 0)),
    error: Uint8Array.from(scores, (s) => (s.error ? 1 : 0)),
    arv: f64(scores, (s) => s.arv_value), arvLow: f64(scores, (s) => s.arv_low), arvHigh: f64(scores, (s) => s.arv_high),
    arvConfidence: f64(scores, (s) => s.arv_confidence), asIs: f64(scores, (s) => s.value_as_is),
    raw: STRATEGIES.map((st) => f64(scores, (s) => s.raw[st])),
  };
}

/** Concatenates batch columns in order. */
export function concatColumns(parts: readonly ScoreColumns[]): ScoreColumns {
  const cat = <T extends Uint8Array | Float64Array>(pick: (c: ScoreColumns) => T, Type: new (n: number) => T): T => {
    const out = new Type(parts.reduce((n, c) => n + pick(c).length, 0));
    let at = 0;
    for (const c of parts) (out.set(pick(c) as never, at), (at += pick(c).length));
    return out;
  };
  return {
    outcome: cat((c) => c.outcome, Uint8Array), point: cat((c) => c.point, Uint8Array), error: cat((c) => c.error, Uint8Array),
    arv: cat((c) => c.arv, Float64Array), arvLow: cat((c) => c.arvLow, Float64Array), arvHigh: cat((c) => c.arvHigh, Float64Array),
    arvConfidence: cat((c) => c.arvConfidence, Float64Array), asIs: cat((c) => c.asIs, Float64Array),
    raw: STRATEGIES.map((_, k) => cat((c) => c.raw[k], Float64Array)),
  };
}

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

/**
 * Percentiles over the scored rows (rankToPercentiles: the population is the non-null scores, so rows without any
 * score are left out of the call and keep null percentiles) and the deal score of point rows.
 */
export function percentilesOf(c: ScoreColumns): { pct: Float64Array[]; deal: Float64Array } {
  const n = c.outcome.length;
  const scored: number[] = [];
  for (let i = 0; i < n; i++) if (c.raw.some((r) => !Number.isNaN(r[i]))) scored.push(i);
  const ranked = rankToPercentiles(scored.map((i) => ({ id: String(i), raw: Object.fromEntries(STRATEGIES.map((st, k) => [st, orNull(c.raw[k][i])])) })));
  const pct = STRATEGIES.map(() => new Float64Array(n).fill(NaN));
  const deal = new Float64Array(n).fill(NaN);
  ranked.forEach((p, j) => {
    const i = scored[j];
    STRATEGIES.forEach((st, k) => (pct[k][i] = p.percentiles[st] ?? NaN));
    if (c.point[i]) deal[i] = dealScore(p.percentiles, 'point').deal_score ?? NaN;
  });
  return { pct, deal };
}

/** A PIN column: the parcel table's own (every parcel, no copy) or strings (a sample, tests). */
export type PinColumn = readonly string[] | Vector<Utf8>;

/**
 * The Arrow results table: one row per parcel; NaN is "null" in the float columns (unscored, never 0). PINs are a
 * plain Utf8 column (all distinct: a dictionary would only add a hash per row).
 */
export function encodeColumns(pins: PinColumn, c: ScoreColumns): Uint8Array {
  return encodeRanked(pins, c, percentilesOf(c));
}

/** The same table with percentiles ranked elsewhere (a distributed run ranks the whole corpus, then writes each partition). */
export function encodeRanked(pins: PinColumn, c: ScoreColumns, ranked: { pct: Float64Array[]; deal: Float64Array }): Uint8Array {
  const { pct, deal } = ranked;
  const pin = Array.isArray(pins) ? vectorFromArray(pins as string[], new Utf8()) : (pins as Vector<Utf8>);
  const cols: Record<string, Vector> = {
    pin, outcome: makeVector(c.outcome), point_actionable: makeVector(c.point), arv_usd: makeVector(c.arv), arv_low_usd: makeVector(c.arvLow),
    arv_high_usd: makeVector(c.arvHigh), arv_confidence: makeVector(c.arvConfidence), value_as_is_usd: makeVector(c.asIs), deal_score: makeVector(deal),
  };
  STRATEGIES.forEach((st, k) => (cols[`pct_${st}`] = makeVector(pct[k])));
  return tableToIPC(new Table(cols), 'stream');
}

export function encodeResults(scores: SubjectScore[]): Uint8Array {
  return encodeColumns(scores.map((s) => s.id), toColumns(scores));
}

/** Evenly spaced parcel rows (all of them without `limit`) and their PINs (the table's column itself for all rows). */
export function parcelRows(store: Store, limit?: number): { snapshotId: string; rows: Int32Array; pins: PinColumn; totalParcels: number } {
  const { id, table } = store.readParcels();
  const pinCol = table.getChild('pin') as Vector<Utf8> | null;
  if (!pinCol) throw new Error('parcel table has no pin column');
  const n = Math.min(table.numRows, limit ?? Infinity);
  const step = table.numRows / Math.max(1, n);
  const rows = Int32Array.from({ length: n }, (_, k) => Math.floor(k * step));
  const pins = n === table.numRows ? pinCol : Array.from(rows, (r) => String(pinCol.get(r)));
  return { snapshotId: id, rows, pins, totalParcels: table.numRows };
}

/** A parcel row as a scoring subject: located by its row, priced at its labeled as-is value, valued as of `asOf`. */
export const parcelRowSubject = (row: number, asOf?: string): ScoreSubject => ({ id: String(row), input: { parcelRow: row, asOf }, priceBasis: 'as_is' });

/**
 * Scores parcel rows through the scorer's bulk entry (or its per-subject batches when it has none), in order, every
 * row valued as of `asOf` (the job's date: a run past a UTC midnight stays on the date it started with).
 */
export async function scoreRows(scorer: BatchScorer, rows: Int32Array, batchSize: number, asOf: string, onProgress?: (done: number, total: number) => void): Promise<ScoreColumns> {
  const parts: ScoreColumns[] = [];
  let next = 0, done = 0;
  const one = (chunk: Int32Array) => (scorer.scoreParcels ? scorer.scoreParcels(chunk, asOf) : scorer.scoreBatch(Array.from(chunk, (row) => parcelRowSubject(row, asOf))).then(toColumns));
  const lane = async (): Promise<void> => {
    while (next < rows.length) {
      const start = next;
      const end = (next = Math.min(rows.length, start + batchSize));
      // A copy of just this batch's rows: a subarray would carry the whole run's buffer to the worker (7.5 MB
      // for the county's 1.9 M parcels, once per task).
      parts[start / batchSize] = await one(rows.slice(start, end));
      done += end - start;
      onProgress?.(done, rows.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, scorer.parallelism) }, lane));
  return concatColumns(parts);
}

/**
 * Scores the parcels as of one date (`asOf`, default the UTC date when the run starts), ranks percentiles over all of
 * them, stores the Arrow table. wall_ms excludes pool start-up.
 */
export async function scoreAll(store: Store, scorer: BatchScorer, o: { progress?: Progress; limit?: number; batchSize?: number; asOf?: string } = {}): Promise<ScoreAllSummary> {
  const t0 = performance.now();
  const asOf = o.asOf ?? utcDay(new Date());
  const { snapshotId, rows, pins, totalParcels } = parcelRows(store, o.limit);
  const cols = await scoreRows(scorer, rows, o.batchSize ?? LISTINGS_RUN.v.score_all_batch_size, asOf, (done, total) => o.progress?.update(done, total, 'valuing'));
  o.progress?.stop();
  const bytes = encodeColumns(pins, cols);
  const key = resultsKey(snapshotId);
  await openSubDb<Buffer>(store.env, DB_NAMES.results).put(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const wallMs = performance.now() - t0;
  const count = (f: (i: number) => boolean): number => {
    let n = 0;
    for (let i = 0; i < rows.length; i++) if (f(i)) n++;
    return n;
  };
  const summary: ScoreAllSummary = {
    snapshot_id: snapshotId, model_version: MODEL_VERSION, parcels: rows.length, total_parcels: totalParcels,
    point: count((i) => cols.point[i] === 1),
    scored: count((i) => cols.raw.some((r) => !Number.isNaN(r[i]))),
    errors: count((i) => cols.error[i] === 1),
    wall_ms: Math.round(wallMs), valuations_per_s: Math.round((rows.length / wallMs) * 1000 * 10) / 10, results_key: key, results_bytes: bytes.byteLength,
  };
  await store.putMeta(SCORE_ALL_META_KEY, summary);
  return summary;
}

/** CLI job: opens the store, starts the pool, scores every parcel with a progress bar, prints the summary. */
export async function runScoreAll(config: Config, o: { limit?: number } = {}): Promise<ScoreAllSummary> {
  const { openStore } = await import('../../store/store.js');
  const { poolScorer } = await import('../scorer.js');
  assertKernelAvailable(); // a forced native kernel that cannot load stops here, not in every worker
  const store = openStore(config.dataDir);
  const scorer = await poolScorer(store, config, { warmLookups: false });
  try {
    return await scoreAll(store, scorer, { progress: createProgress('score-all'), limit: o.limit });
  } finally {
    await scorer.close();
    await store.close();
  }
}
