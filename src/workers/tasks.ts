// Task handlers a valuation worker runs, by name. Built-ins: `comps` (one subject, with rejections), `compsBatch`
// (packed subjects in, packed kernel records out), `kernelStats`. Later modules add tasks (e.g. `value`) by passing
// `taskModules` to the pool: each module exports `tasks: Record<string, TaskHandler>`.
import { AppError } from '../errors/app-error.js';
import { ERROR_CODES, type ErrorCode } from '../errors/codes.js';
import type { Kernel } from '../kernel/kernel.js';
import type { QueryOptions, Subject } from '../kernel/types.js';
import { SUBJECT_LEN } from '../kernel/abi-layout.js';

/** `kernel`: the thread's kernel over the pool's fixed columns, or null when the pool was given none. */
export type TaskContext = { kernel: Kernel | null };
/** A task gets the payload the main thread sent (typed by each task module) and the thread's context. */
export type TaskHandler = (payload: never, ctx: TaskContext) => unknown;

/** What crosses back from a worker: a value, or an error already in the taxonomy. */
export type TaskReply = { ok: true; value: unknown } | { ok: false; error: { code: AppError['code']; message: string; details: unknown } };

function kernelOf(ctx: TaskContext): Kernel {
  if (!ctx.kernel) throw new AppError('internal_error', 'this pool was started without kernel columns');
  return ctx.kernel;
}

export const BUILTIN_TASKS: Record<string, TaskHandler> = {
  comps: (p: { subject: Subject; opts?: QueryOptions }, ctx) => kernelOf(ctx).queryComps(p.subject, p.opts ?? {}),
  compsBatch: (p: { subjects: Float64Array }, ctx) => {
    if (!(p.subjects instanceof Float64Array) || p.subjects.length % SUBJECT_LEN !== 0) {
      throw new AppError('validation_failed', `compsBatch needs a Float64Array of ${SUBJECT_LEN} slots per subject`);
    }
    return kernelOf(ctx).batchPacked(p.subjects);
  },
  kernelStats: (_p: unknown, ctx) => ({
    frontEnd: kernelOf(ctx).frontEnd,
    indexKey: kernelOf(ctx).indexKey ?? null,
    indexRows: kernelOf(ctx).indexRows,
    gridCells: kernelOf(ctx).gridCells,
    wasmMemoryBytes: kernelOf(ctx).memoryBytes(),
    heapUsedBytes: process.memoryUsage().heapUsed,
  }),
};

/** Runs `task` and wraps the outcome; unknown failures become internal_error so the reply is always typed. */
export async function dispatch(handlers: Record<string, TaskHandler>, task: string, payload: unknown, ctx: TaskContext): Promise<TaskReply> {
  const handler = handlers[task];
  try {
    if (!handler) throw new AppError('internal_error', `no worker task named ${task}`);
    return { ok: true, value: await handler(payload as never, ctx) };
  } catch (e) {
    const err = asAppError(e) ?? new AppError('internal_error', `worker task ${task} failed: ${(e as Error)?.message ?? e}`);
    return { ok: false, error: { code: err.code, message: err.message, details: cloneableDetails(err.details) } };
  }
}

/**
 * A domain error keeps its taxonomy code across the thread hop. Matched by shape as well as class: a task module
 * resolved through another path loads its own copy of AppError, and `instanceof` alone would turn its 4xx into a 500.
 */
export function asAppError(e: unknown): AppError | null {
  if (e instanceof AppError) return e;
  const o = e as { name?: unknown; code?: unknown; message?: unknown; details?: unknown } | null;
  if (o && o.name === 'AppError' && typeof o.code === 'string' && Object.hasOwn(ERROR_CODES, o.code)) {
    return new AppError(o.code as ErrorCode, String(o.message ?? ''), { details: o.details });
  }
  return null;
}

/** Details that postMessage cannot clone would fail the reply itself (seen as worker_crashed); drop them instead. */
function cloneableDetails(details: unknown): unknown {
  try {
    return structuredClone(details);
  } catch {
    return null;
  }
}
