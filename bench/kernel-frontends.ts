// Native addon vs WASM kernel on a stored corpus (issue 17 item 2), printed as JSON on stdout (not a results file):
//   node dist/bench/kernel-frontends.js latency DATA_DIR [subjects]   per-query median/p99, whole-batch time, build
//   node dist/bench/kernel-frontends.js rss DATA_DIR wasm|native|none N   process RSS of a pool of N kernel workers
// Subjects are drawn as score-all draws them (bench/county-subjects.ts). Timings are wall time per call on this
// machine; the load average is recorded beside them because the 2 cores are shared.
import { loadavg } from 'node:os';
import { createKernel, createWasmKernel, type Kernel } from '../src/kernel/index.js';
import { encodeSubjects } from '../src/kernel/decode.js';
import { openStore, type Store } from '../src/store/store.js';
import type { KernelColumns, TimeIndexSeries } from '../src/kernel/types.js';
import { kernelColumnsOf } from '../src/valuation/comps/kernel-columns.js';
import { buildValuationContext, servingCutoffDay } from '../src/valuation/value-context.js';
import { armsLengthMask, salesColumnsFromArrow } from '../src/store/sales-columns.js';
import { buildTimeIndex } from '../src/valuation/comps/time-index.js';
import { createValuationPool } from '../src/workers/index.js';
import { countySubjects, type BenchCase } from './county-subjects.js';

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const mib = (b: number): number => +(b / 2 ** 20).toFixed(1);

function timed<T>(f: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  return [f(), ms(t0)];
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Per-call wall time of queryComps (with rejections, as the served Tier-1 query) over `rounds` passes. */
function perQuery(k: Kernel, cases: BenchCase[], rounds: number): { median_us: number; p99_us: number; mean_us: number } {
  for (const c of cases.slice(0, 2000)) k.queryComps(c.subject, c.opts); // warm caches and JIT
  const t = new Float64Array(cases.length * rounds);
  let i = 0;
  for (let r = 0; r < rounds; r++) {
    for (const c of cases) {
      const t0 = process.hrtime.bigint();
      k.queryComps(c.subject, c.opts);
      t[i++] = Number(process.hrtime.bigint() - t0) / 1e3;
    }
  }
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  t.sort();
  return { median_us: +quantile(t, 0.5).toFixed(2), p99_us: +quantile(t, 0.99).toFixed(2), mean_us: +mean.toFixed(2) };
}

/** The kernel's inputs as buildValuationContext derives them (sales columns, serving time index). */
function kernelInputs(store: Store): { columns: KernelColumns; timeIndex: TimeIndexSeries[] } {
  const sales = salesColumnsFromArrow(store.readSalesSnapshot().table);
  return { columns: kernelColumnsOf(sales), timeIndex: buildTimeIndex(sales, servingCutoffDay(sales), armsLengthMask(sales)).series };
}

function latency(dataDir: string, n: number): object {
  const store = openStore(dataDir);
  const { columns: cols, timeIndex } = kernelInputs(store);
  const [wasm, wasmBuild] = timed(() => createWasmKernel(cols, timeIndex));
  const [native, nativeBuild] = timed(() => createKernel(cols, timeIndex, { frontEnd: 'native' }));
  const [, nativeJoin] = timed(() => createKernel(cols, timeIndex, { frontEnd: 'native' }));
  const ctx = buildValuationContext(store, { hooks: {}, kernel: native });
  const cases = countySubjects(ctx, n);
  const packed = encodeSubjects(cases.map((c) => c.subject));
  const [wOut, wBatch] = timed(() => wasm.batchPacked(packed));
  const [nOut, nBatch] = timed(() => native.batchPacked(packed));
  const comps = cases.reduce((a, c) => a + native.queryComps(c.subject, c.opts).accepted.length, 0) / cases.length;
  const load = loadavg()[0];
  const w = perQuery(wasm, cases, 3);
  const nq = perQuery(native, cases, 3);
  return {
    corpus: dataDir, sales: cols.lat.length, indexed_rows: native.indexRows, subjects: cases.length, comps_per_subject: +comps.toFixed(2),
    index_build_ms: { wasm: Math.round(wasmBuild), native: Math.round(nativeBuild), native_second_thread_join: Math.round(nativeJoin) },
    per_query: { wasm: w, native: nq, wasm_over_native_median: +(w.median_us / nq.median_us).toFixed(2) },
    whole_batch_ms: { wasm_one_thread: Math.round(wBatch), native_rayon: Math.round(nBatch), output_slots_equal: wOut.length === nOut.length },
    memory_mib: { wasm_linear_memory: mib(wasm.memoryBytes()), native_heap: mib(native.memoryBytes()) },
    load_avg_1m: { before: +load.toFixed(2), after: +loadavg()[0].toFixed(2) },
  };
}

/**
 * Process RSS (main thread + worker threads) after a pool of `workers` kernel threads loaded the corpus; `none`: the
 * same pool without kernel columns (what the threads themselves cost).
 */
async function rss(dataDir: string, frontEnd: 'wasm' | 'native' | 'none', workers: number): Promise<object> {
  const store = openStore(dataDir);
  const { columns, timeIndex } = kernelInputs(store);
  const before = process.memoryUsage().rss;
  const loader = frontEnd === 'none' ? undefined : () => ({ columns, timeIndex });
  const pool = await createValuationPool({ workers, maxQueue: 64, taskTimeoutMs: 600_000, snapshotLoader: loader, frontEnd: frontEnd === 'none' ? undefined : frontEnd });
  // Without columns kernelStats is refused (internal_error) once each thread is up: settled either way.
  const settled = await Promise.allSettled(Array.from({ length: workers * 2 }, () => pool.run<{ frontEnd: string; wasmMemoryBytes: number }>('kernelStats')));
  const stats = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [{ frontEnd: 'none', wasmMemoryBytes: 0 }]));
  await new Promise((r) => setTimeout(r, 500));
  const after = process.memoryUsage().rss;
  await pool.close();
  await store.close();
  return {
    frontEnd, workers, kernels: [...new Set(stats.map((s) => s.frontEnd))], rss_before_pool_mib: mib(before), rss_with_pool_mib: mib(after),
    pool_rss_mib: mib(after - before), kernel_memory_mib_per_thread: mib(stats[0].wasmMemoryBytes), load_avg_1m: +loadavg()[0].toFixed(2),
  };
}

const [mode, dataDir, a, b] = process.argv.slice(2);
const run = async (): Promise<object> => {
  if (mode === 'latency') return latency(dataDir, Number(a ?? 20_000));
  if (mode === 'rss') return rss(dataDir, a as 'wasm' | 'native' | 'none', Number(b ?? 1));
  throw new Error('usage: kernel-frontends.js latency DATA_DIR [n] | rss DATA_DIR wasm|native|none N');
};
process.stdout.write(`${JSON.stringify(await run(), null, 1)}\n`);
