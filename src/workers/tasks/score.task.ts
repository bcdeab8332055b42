// Worker task module of the scoring pools (the listings run, `avm score-all`): `scoreSubjects` values (through the
// served path, comp-source chain included), underwrites and raw-scores a batch of subjects (percentiles need the whole
// inventory: main thread); `scoreParcels` scores parcel rows through the bulk valuation into columns; `warmScoringContext`
// builds the thread's context ahead of work. Each carries the stamp the job read when it started.
import { threadId } from 'node:worker_threads';
import type { ScoreColumns } from '../../scoring/bulk/columns.js';
import { scoreParcelColumns } from '../../scoring/bulk/score-columns.js';
import { scoreServedSubject, type ScoreSubject, type SubjectScore } from '../../scoring/score-subject.js';
import { contextFor, warmLookups } from '../context.js';
import type { TaskHandler } from '../tasks.js';
import type { StampedPayload } from './valuation.task.js';

export type ScoreBatchPayload = StampedPayload & { subjects: ScoreSubject[] };
/** Bulk scoring: parcel-table rows valued as of the job's date; the reply is columns (typed arrays), not one object per parcel. */
export type ScoreParcelsPayload = StampedPayload & { rows: Int32Array; asOf: string };
export type WarmPayload = StampedPayload & { warm?: boolean };

export const SCORE_TASK = 'scoreSubjects';
export const SCORE_PARCELS_TASK = 'scoreParcels';
export const WARM_TASK = 'warmScoringContext';

export const tasks: Record<string, TaskHandler> = {
  [SCORE_TASK]: async (p: ScoreBatchPayload): Promise<SubjectScore[]> => {
    const { ctx } = contextFor(p.dataDir, p.stamp);
    const out: SubjectScore[] = [];
    for (const s of p.subjects) out.push(await scoreServedSubject(s, ctx, p.chain));
    return out;
  },
  [SCORE_PARCELS_TASK]: (p: ScoreParcelsPayload): ScoreColumns => scoreParcelColumns(p.rows, contextFor(p.dataDir, p.stamp).ctx, p.asOf),
  /** Builds this worker's context now (seconds at default scale) so the first real batch does not pay for it. */
  [WARM_TASK]: (p: WarmPayload): number => {
    const { ctx } = contextFor(p.dataDir, p.stamp);
    if (p.warm ?? true) warmLookups(ctx);
    return threadId;
  },
};
