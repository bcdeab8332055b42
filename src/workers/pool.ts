// The worker pool (Piscina). Valuation tasks build their thread's context from the store themselves, by the stamp each
// task carries (workers/context.ts). A pool may also be handed fixed kernel columns (kernel benches and tests): they
// are shared with the threads as SharedArrayBuffer-backed columns, one kernel per thread, for the built-in comp tasks.
// Pool failures map to pool_queue_full, pool_timeout and worker_crashed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { AppError } from '../errors/app-error.js';
import { COLUMN_IDS, SUBJECT_LEN } from '../kernel/abi-layout.js';
import { decodeBatch, encodeSubjects } from '../kernel/decode.js';
import type { ColumnName, CompsResult, KernelColumns, QueryOptions, Subject, TimeIndexSeries } from '../kernel/types.js';
import type { KernelFrontEnd } from '../kernel/kernel.js';
import { kernelModule, repoRoot } from '../kernel/wasm.js';
import type { TaskReply } from './tasks.js';
import type { WorkerInit } from './valuation-worker.js';

export type SnapshotData = { columns: KernelColumns; timeIndex: TimeIndexSeries[] };
export type PoolOptions = {
  workers: number;
  maxQueue: number;
  /** Limit per task from submission (queue wait included), enforced by aborting it: the worker is replaced. */
  taskTimeoutMs: number;
  /** Fixed kernel columns for the built-in comp tasks (comps, compsBatch, kernelStats); absent: no thread kernel. */
  snapshotLoader?: () => SnapshotData | Promise<SnapshotData>;
  /** Absolute paths of compiled modules exporting `tasks` (see tasks.ts), loaded by every worker. */
  taskModules?: string[];
  /** Front-end of the thread kernels over the fixed columns (benches compare them); default: the process's choice. */
  frontEnd?: KernelFrontEnd;
};

/** `transfer`: buffers of the payload moved to the worker instead of copied (detached in this thread afterwards). */
export type RunOptions = { transfer?: ArrayBuffer[] };

export type ValuationPool = {
  run<T = unknown>(task: string, payload?: unknown, opts?: RunOptions): Promise<T>;
  comps(subject: Subject, opts?: QueryOptions): Promise<CompsResult>;
  compsBatch(subjects: readonly Subject[] | Float64Array, opts?: QueryOptions): Promise<Array<CompsResult | AppError>>;
  readonly threads: number;
  /** Gauges for /metrics: Piscina's own queue depth and utilization (0..1 since start), and tasks run here not yet settled. */
  stats(): PoolStats;
  close(): Promise<void>;
};

export type PoolStats = { queueSize: number; utilization: number; inFlight: number; threads: number };

/** Compiled worker entry: Piscina threads load JavaScript, so even under vitest the worker runs from dist/. */
export function workerEntryPath(): string {
  const file = join(repoRoot(), 'dist', 'src', 'workers', 'valuation-worker.js');
  if (!existsSync(file)) throw new AppError('internal_error', `worker entry ${file} missing: run npm run build`);
  return file;
}

/** Copies each column into a SharedArrayBuffer so every worker reads the same bytes. */
export function shareColumns(c: KernelColumns): KernelColumns {
  const out = {} as Record<ColumnName, unknown>;
  for (const name of Object.keys(COLUMN_IDS) as ColumnName[]) {
    const Type = COLUMN_IDS[name].type;
    // Typed arrays accept a SharedArrayBuffer; the cast only widens the lib typing of the constructor union.
    const shared = new Type(new SharedArrayBuffer(c[name].length * Type.BYTES_PER_ELEMENT) as unknown as ArrayBuffer);
    shared.set(c[name] as never);
    out[name] = shared;
  }
  return out as KernelColumns;
}

/** The taxonomy error of a failed pool run (the worker's own errors come back as TaskReply, not here). */
export function poolError(e: unknown, timeoutMs: number): AppError {
  const err = e as Error;
  if (err?.name === 'AbortError') return new AppError('pool_timeout', `valuation task exceeded ${timeoutMs} ms`, { cause: e });
  if (/queue is at limit/i.test(err?.message ?? '')) return new AppError('pool_queue_full', 'valuation pool queue is full', { retryAfterSec: 1, cause: e });
  return new AppError('worker_crashed', `valuation worker stopped: ${err?.message ?? e}`, { cause: e });
}

export async function createValuationPool(o: PoolOptions): Promise<ValuationPool> {
  const snap = o.snapshotLoader ? await o.snapshotLoader() : null;
  const workerData: WorkerInit = {
    columns: snap ? shareColumns(snap.columns) : null,
    timeIndex: snap?.timeIndex ?? [],
    module: kernelModule(),
    taskModules: (o.taskModules ?? []).map((p) => pathToFileURL(p).href),
    frontEnd: o.frontEnd,
  };
  const piscina = new Piscina({ filename: workerEntryPath(), minThreads: o.workers, maxThreads: o.workers, maxQueue: o.maxQueue, idleTimeout: 2 ** 31 - 1, workerData });
  // Piscina parks tasks that carry an abort signal outside its bounded queue, so the bound is kept here:
  // at most one running task per worker plus maxQueue waiting.
  let inFlight = 0;
  const run = async <T>(task: string, payload?: unknown, ro: RunOptions = {}): Promise<T> => {
    if (inFlight >= o.workers + o.maxQueue) throw poolError(new Error('Task queue is at limit'), o.taskTimeoutMs);
    let reply: TaskReply;
    inFlight++;
    // The task's deadline, disarmed when it settles. AbortSignal.timeout's timer stays armed for the whole timeout
    // after the answer: at 500 requests/s ~15,000 timers with their signals were alive at any time, each surviving
    // young-generation GCs into the old one (load bench, 500/s: main-thread full-GC pauses 46-56 -> 33-38 ms a run).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), o.taskTimeoutMs).unref();
    try {
      reply = (await piscina.run({ task, payload }, { signal: deadline.signal, transferList: ro.transfer })) as TaskReply;
    } catch (e) {
      throw poolError(e, o.taskTimeoutMs);
    } finally {
      clearTimeout(timer);
      inFlight--;
    }
    if (!reply.ok) throw new AppError(reply.error.code, reply.error.message, { details: reply.error.details });
    return reply.value as T;
  };
  return {
    run,
    comps: (subject, opts = {}) => run<CompsResult>('comps', { subject, opts }),
    async compsBatch(subjects, opts = {}) {
      const packed = subjects instanceof Float64Array ? subjects : encodeSubjects(subjects, opts);
      const out = await run<Float64Array>('compsBatch', { subjects: packed });
      return decodeBatch(out, packed.length / SUBJECT_LEN);
    },
    get threads() {
      return piscina.threads.length;
    },
    stats: () => ({ queueSize: piscina.queueSize, utilization: piscina.utilization, inFlight, threads: piscina.threads.length }),
    close: () => piscina.destroy(),
  };
}
