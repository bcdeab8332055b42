// Public surface of the worker pool.
export { createValuationPool, shareColumns, workerEntryPath, type PoolOptions, type RunOptions, type SnapshotData, type ValuationPool } from './pool.js';
export { BUILTIN_TASKS, type TaskContext, type TaskHandler } from './tasks.js';
