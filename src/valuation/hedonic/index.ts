// Public surface of Tier 2 (hedonic_v1).
export { fitHedonic, segmentRows } from './fit.js';
export { predictHedonic, hedonicInterval, resolveLocation, quarterFor } from './predict.js';
export { hedonicEvidence } from './evidence.js';
export { backtestHedonic, type HedonicBacktest, type HedonicBacktestRow } from './backtest.js';
export { runFitHedonic, tractMetaFromRecords } from './job.js';
export { saveHedonicModel, loadHedonicModel, listHedonicModels, summarizeHedonicModel, HEDONIC_CURRENT_KEY, type HedonicModelSummary } from './store.js';
export { segmentKey } from './design.js';
export { salesColumnsFromArrow, armsLengthMask, type SalesColumns } from '../../store/sales-columns.js';
export { quarterOfDay, dayOfIso, isoOfDay } from '../../store/days.js';
export type * from './types.js';
