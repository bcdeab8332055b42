// Batch scorers: the worker pool (one task per batch, the production path) or in-process (tests, tiny jobs), both
// running the same served scoring (scoreServedSubject). scoreInBatches keeps a bounded number of batches in flight and reports progress.
import { join } from 'node:path';
import type { Config } from '../config.js';
import { repoRoot } from '../kernel/index.js';
import type { Store } from '../store/store.js';
import { chainOfConfig, type ServeFallbackConfig } from '../valuation/fallback/serve.js';
import { buildValuationContext, type ValuationContext } from '../valuation/value-context.js';
import { createValuationPool } from '../workers/index.js';
import { readStamp, type Stamp } from '../workers/stamp.js';
import type { StampedPayload } from '../workers/tasks/valuation.task.js';
import type { ScoreColumns } from './bulk/columns.js';
import { scoreParcelColumns } from './bulk/score-columns.js';
import { SCORE_PARCELS_TASK, SCORE_TASK, WARM_TASK, type ScoreBatchPayload, type ScoreParcelsPayload, type WarmPayload } from '../workers/tasks/score.task.js';
import { scoreServedSubject, type ScoreSubject, type SubjectScore } from './score-subject.js';

export type BatchScorer = {
  scoreBatch(subjects: ScoreSubject[]): Promise<SubjectScore[]>;
  /**
   * Bulk entry (score-all): parcel rows in, score columns out (see score-all.ts); absent → scoreBatch per subject.
   * The pool's entry moves `rows` to the worker when the array owns its whole buffer (the buffer is detached
   * afterwards), and copies just its rows otherwise. Every row is valued as of `asOf`, the job's date.
   */
  scoreParcels?(rows: Int32Array, asOf: string): Promise<ScoreColumns>;
  /** Batches worth keeping in flight (2 per worker thread keeps every worker fed while results cross back). */
  readonly parallelism: number;
  close(): Promise<void>;
};

/**
 * Same scoring, in this thread: for tests and callers that already hold a context. `chain` as the service serves
 * (listing subjects run the comp-source chain like any door); bulk parcel scoring stays corpus-only.
 */
export function localScorer(ctx: ValuationContext, chain: ServeFallbackConfig): BatchScorer {
  return {
    scoreBatch: async (subjects) => {
      const out: SubjectScore[] = [];
      for (const s of subjects) out.push(await scoreServedSubject(s, ctx, chain));
      return out;
    },
    scoreParcels: async (rows, asOf) => scoreParcelColumns(rows, ctx, asOf),
    parallelism: 1,
    close: async () => {},
  };
}

/** Compiled task module the pool's workers load (Piscina threads run JavaScript from dist/). */
export function scoreTaskModulePath(): string {
  return join(repoRoot(), 'dist', 'src', 'workers', 'tasks', 'score.task.js');
}

/**
 * A pool whose workers each open the store under dataDir and build their valuation context, under the stamp read now
 * (one job, one set of versions), before this resolves; then score batches. `warmLookups` (default true: the
 * listings run) also builds the PIN/address/point lookups at start-up; bulk scoring by parcel row does not read them.
 * `stamp` pins other versions than the store's current ones (a distributed score-all run scores under its coordinator's).
 */
export async function poolScorer(store: Store, config: Pick<Config, 'dataDir' | 'workers' | 'poolMaxQueue' | 'taskTimeoutMs' | 'opendataBaseUrl' | 'forceOpendata'>, o: { warmLookups?: boolean; stamp?: Stamp } = {}): Promise<BatchScorer> {
  const pool = await createValuationPool({
    workers: config.workers,
    maxQueue: config.poolMaxQueue,
    // Each worker builds its valuation context on its first batch: allow for it on top of the task budget.
    taskTimeoutMs: config.taskTimeoutMs * 4,
    taskModules: [scoreTaskModulePath()],
  });
  const stamped: StampedPayload = { dataDir: config.dataDir, stamp: o.stamp ?? readStamp(store), chain: chainOfConfig(config) };
  // Warm-up tasks until every thread has built its context (a thread already warm answers at once, so a round
  // normally lands one task per thread; a few rounds cover an unlucky distribution).
  const warmed = new Set<number>();
  for (let round = 0; round < 4 && warmed.size < pool.threads; round++) {
    const ids = await Promise.all(Array.from({ length: Math.max(1, pool.threads) }, () => pool.run<number>(WARM_TASK, { ...stamped, warm: o.warmLookups ?? true } satisfies WarmPayload)));
    ids.forEach((id) => warmed.add(id));
  }
  return {
    scoreBatch: (subjects) => pool.run<SubjectScore[]>(SCORE_TASK, { ...stamped, subjects } satisfies ScoreBatchPayload),
    scoreParcels: (rows, asOf) => {
      const owned = rows.buffer instanceof ArrayBuffer && rows.byteOffset === 0 && rows.byteLength === rows.buffer.byteLength;
      const own = owned ? (rows as Int32Array<ArrayBuffer>) : rows.slice();
      return pool.run<ScoreColumns>(SCORE_PARCELS_TASK, { ...stamped, rows: own, asOf } satisfies ScoreParcelsPayload, { transfer: [own.buffer] });
    },
    parallelism: Math.max(1, pool.threads) * 2,
    close: () => pool.close(),
  };
}

/** Scores `subjects` in batches of `batchSize`, results in input order; `onProgress(done, total)` after each batch. */
export async function scoreInBatches(scorer: BatchScorer, subjects: readonly ScoreSubject[], batchSize: number, onProgress?: (done: number, total: number) => void): Promise<SubjectScore[]> {
  const out: SubjectScore[] = new Array(subjects.length);
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    while (next < subjects.length) {
      const start = next;
      next = Math.min(subjects.length, start + batchSize);
      const res = await scorer.scoreBatch(subjects.slice(start, next));
      for (let i = 0; i < res.length; i++) out[start + i] = res[i];
      done += res.length;
      onProgress?.(done, subjects.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, scorer.parallelism) }, lane));
  return out;
}

/** In-process scorer over a fresh context of the store (convenience for tests and small jobs). */
export function localScorerFor(store: Store, chain: ServeFallbackConfig): BatchScorer {
  return localScorer(buildValuationContext(store), chain);
}
