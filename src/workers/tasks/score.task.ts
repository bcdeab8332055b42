// Worker task module (loaded by a valuation pool through `taskModules`): `scoreSubjects` values, underwrites and
// raw-scores one batch of subjects against the worker's kernel (percentiles need the whole inventory: main thread);
// `scoreParcels` does the same for parcel rows through the bulk valuation (score-columns.ts) and replies in columns;
// `underwriteBundle` values one subject with its underwriting and risk report (the /api/underwrite parts);
// `underwriteResponseJson` is GET /api/underwrite's whole body as JSON text (a string crosses threads as one copy,
// where the bundle's object graph would be cloned field by field and serialized again on the main thread);
// `riskReport` answers the risk_report tool; `warmScoringContext` builds the worker's context ahead of work.
import { threadId } from 'node:worker_threads';
import { riskReportFor, type RiskReportResponse } from '../../risk/index.js';
import type { TaskHandler } from '../tasks.js';
import { underwriteBundleOf, underwriteResponseOf, type BundleRequest, type UnderwriteBundle } from '../answers/bundle.js';
import { workerScoringContext, workerStoreAndContext } from '../context.js';
import type { ScoreColumns } from '../../scoring/bulk/score-all.js';
import { scoreParcelColumns } from '../../scoring/bulk/score-columns.js';
import { scoreSubject, type ScoreSubject, type SubjectScore } from '../../scoring/score-subject.js';

export type ScoreBatchPayload = { dataDir: string; subjects: ScoreSubject[] };
/** Bulk scoring: parcel-table rows; the reply is columns (typed arrays), not one object per parcel. */
export type ScoreParcelsPayload = { dataDir: string; rows: Int32Array };
export type BundlePayload = BundleRequest & { dataDir: string };

export const SCORE_TASK = 'scoreSubjects';
export const SCORE_PARCELS_TASK = 'scoreParcels';
export const BUNDLE_TASK = 'underwriteBundle';
export const UNDERWRITE_JSON_TASK = 'underwriteResponseJson';
export const WARM_TASK = 'warmScoringContext';
export const RISK_TASK = 'riskReport';

export const tasks: Record<string, TaskHandler> = {
  [SCORE_TASK]: (p: ScoreBatchPayload, { kernel }): SubjectScore[] => {
    const ctx = workerScoringContext(p.dataDir, kernel);
    return p.subjects.map((s) => scoreSubject(s, ctx));
  },
  [SCORE_PARCELS_TASK]: (p: ScoreParcelsPayload, { kernel }): ScoreColumns => scoreParcelColumns(p.rows, workerScoringContext(p.dataDir, kernel)),
  [BUNDLE_TASK]: (p: BundlePayload, { kernel }): UnderwriteBundle => underwriteBundleOf(workerScoringContext(p.dataDir, kernel), p),
  [UNDERWRITE_JSON_TASK]: (p: BundlePayload, { kernel }): string => {
    const { store, ctx } = workerStoreAndContext(p.dataDir, kernel);
    return JSON.stringify(underwriteResponseOf(store, underwriteBundleOf(ctx, p)));
  },
  /** risk_report tool: payload {dataDir, params} with the tool's raw params (validated strictly). */
  [RISK_TASK]: (p: { dataDir: string; params: unknown }, { kernel }): RiskReportResponse => riskReportFor(workerScoringContext(p.dataDir, kernel), p.params),
  /** Builds this worker's context now (seconds at default scale) so the first real batch does not pay for it. */
  [WARM_TASK]: (p: { dataDir: string; warm?: boolean }, { kernel }): number => {
    workerScoringContext(p.dataDir, kernel, { warm: p.warm ?? true });
    return threadId;
  },
};
