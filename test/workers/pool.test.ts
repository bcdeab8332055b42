// The Piscina valuation pool: workers answer comp tasks exactly like an in-process kernel, extra task modules plug
// in, and pool failures map to pool_timeout, pool_queue_full and worker_crashed. Needs the compiled worker
// (`npm test` runs tsc first; run `npm run build` before `npx vitest run test/workers`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateCorpus, subjectAt } from '../../bench/kernel-corpus.js';
import { createKernel, encodeSubjects } from '../../src/kernel/index.js';
import { createValuationPool, type ValuationPool } from '../../src/workers/index.js';

const END_DAY = 20_000;
const corpus = generateCorpus({ n: 3000, seed: 21, region: 'town', endDay: END_DAY });
const loader = () => ({ columns: corpus.columns, timeIndex: corpus.timeIndex });
const cases = Array.from({ length: 64 }, (_, i) => subjectAt(corpus.columns, Array.from({ length: 15 }, (_, j) => ((i * 613 + j * 389) % 997) / 997), END_DAY));

let dir: string;
let taskModule: string;
let pool: ValuationPool;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'avm-pool-'));
  taskModule = join(dir, 'test-tasks.mjs');
  // A plug-in task module as later issues will write one: tasks get the payload and the worker's kernel.
  writeFileSync(taskModule, [
    'export const tasks = {',
    '  rows: (_p, { kernel }) => kernel.indexRows,',
    '  sleep: (ms) => new Promise((r) => setTimeout(() => r(ms), ms)),',
    '  crash: () => process.exit(3),',
    // A domain error from a task module holding its own copy of AppError (same shape, other class), with details
    // postMessage cannot clone: the code must survive the thread hop.
    "  foreignAppError: () => { const e = new Error('no such parcel'); e.name = 'AppError'; e.code = 'property_not_found'; e.details = { fmt: () => 1 }; throw e; },",
    '};',
  ].join('\n'));
  pool = await createValuationPool({ workers: 2, maxQueue: 64, taskTimeoutMs: 5_000, snapshotLoader: loader, taskModules: [taskModule] });
});

afterAll(async () => {
  await pool?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('valuation pool', () => {
  it('answers comps and compsBatch exactly like an in-process kernel', async () => {
    const local = createKernel(corpus.columns, corpus.timeIndex);
    const { subject, opts } = cases[0];
    expect(await pool.comps(subject, opts)).toEqual(local.queryComps(subject, opts));
    const subjects = cases.map((c) => c.subject);
    expect(await pool.compsBatch(subjects, { maxStep: 3 })).toEqual(local.batch(subjects, { maxStep: 3 }));
  });

  it('moves a payload buffer given in the transfer list instead of copying it', async () => {
    const local = createKernel(corpus.columns, corpus.timeIndex);
    const packed = encodeSubjects(cases.map((c) => c.subject), { maxStep: 3 });
    const expected = local.batchPacked(packed);
    const moved = packed.slice();
    const out = await pool.run<Float64Array>('compsBatch', { subjects: moved }, { transfer: [moved.buffer] });
    expect(moved.buffer.byteLength).toBe(0); // detached here: the worker got the bytes, not a copy
    expect(Array.from(out)).toEqual(Array.from(expected));
  });

  it('runs tasks from a plug-in module with the worker kernel', async () => {
    expect(await pool.run('rows')).toBe(createKernel(corpus.columns, corpus.timeIndex).indexRows);
    const stats = await pool.run<{ wasmMemoryBytes: number }>('kernelStats');
    expect(stats.wasmMemoryBytes).toBeGreaterThan(0);
  });

  it('returns worker-side errors with their taxonomy code', async () => {
    await expect(pool.run('compsBatch', { subjects: new Float64Array(5) })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(pool.run('no_such_task')).rejects.toMatchObject({ code: 'internal_error' });
    await expect(pool.comps({ ...cases[0].subject, lat: NaN })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(pool.run('foreignAppError')).rejects.toMatchObject({ code: 'property_not_found', status: 404, message: 'no such parcel' });
  });

  it('disarms the deadline of a task once it settles', async () => {
    // A deadline left armed after its answer (AbortSignal.timeout: the timer lives the whole 5 s here, 30 s in
    // service) kept every task's timer and signal alive through young-generation GCs at serving rates.
    const armed = vi.spyOn(globalThis, 'setTimeout');
    try {
      await pool.run('rows');
      await expect(pool.run('no_such_task')).rejects.toMatchObject({ code: 'internal_error' });
      const deadlines = armed.mock.calls.flatMap((c, i) => (c[1] === 5_000 ? [armed.mock.results[i].value as NodeJS.Timeout & { _destroyed?: boolean }] : []));
      expect(deadlines).toHaveLength(2);
      expect(deadlines.every((t) => t._destroyed === true)).toBe(true);
    } finally {
      armed.mockRestore();
    }
  });

  it('maps a full queue to pool_queue_full, a slow task to pool_timeout and an exit to worker_crashed', async () => {
    const small = await createValuationPool({ workers: 1, maxQueue: 1, taskTimeoutMs: 1_000, snapshotLoader: loader, taskModules: [taskModule] });
    try {
      expect(await small.run('sleep', 1)).toBe(1); // the one worker is up
      const running = small.run('sleep', 300);
      const queued = small.run('sleep', 10);
      await expect(small.run('sleep', 10)).rejects.toMatchObject({ code: 'pool_queue_full', retryAfterSec: 1 });
      expect(await Promise.all([running, queued])).toEqual([300, 10]);
      await expect(small.run('sleep', 5_000)).rejects.toMatchObject({ code: 'pool_timeout' });
      await expect(small.run('crash')).rejects.toMatchObject({ code: 'worker_crashed' });
      // The pool replaces the crashed worker.
      expect(await small.run('sleep', 1)).toBe(1);
    } finally {
      await small.close();
    }
  });
});
